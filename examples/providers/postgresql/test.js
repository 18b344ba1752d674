// test.js — calls the PostgreSQL test provider's Read/Check/Diff handlers directly against a running
// server (tests/e2e/test_postgresql.sh creates it and the objects, then runs this with PGHOST/PGPORT
// set). Asserts the values read from the catalogs, the bridged import shape, Check defaults and
// failures, Diff paths, and the import algorithm's outcome (minimal inputs that verify).
"use strict";

const assert = require("assert");
const p = require("./index.js");

const T = {
    role: "postgresql:index/role:Role",
    db: "postgresql:index/database:Database",
    schema: "postgresql:index/schema:Schema",
    ext: "postgresql:index/extension:Extension",
    grant: "postgresql:index/grant:Grant",
};

let checks = 0;
function eq(actual, expected, what) {
    assert.deepStrictEqual(actual, expected, what);
    checks++;
}

// The import algorithm of cimport (ARCHITECTURE §6) on the handlers: required inputs, Check, Diff,
// copy differing values from the state, then verify.
function minimalInputs(type, read, schemaRequired) {
    const ip = {};
    for (const k of schemaRequired) if (read.inputs[k] !== undefined) ip[k] = read.inputs[k];
    for (let round = 0; round < 4; round++) {
        const checked = p.check(type, ip);
        const changes = p.diff(type, read.props, checked.inputs);
        if (changes.length === 0) return { inputs: ip, failures: checked.failures };
        for (const [k] of changes) ip[k] = read.props[k];
    }
    throw new Error(`${type}: still differs after 4 rounds`);
}

async function main() {
    p.setConfig({ host: process.env.PGHOST, port: process.env.PGPORT, username: "postgres", sslmode: "disable" }, {});
    const schema = require(process.env.CIMPORT_POSTGRESQL_SCHEMA || require("path").join(process.env.CIMPORT_SHARED_DATA, "schemas/postgresql/schema.json"));
    const required = (t) => schema.resources[t].requiredInputs || [];

    // Role
    const role = await p.read(T.role, "app_owner");
    eq(role.id, "app_owner", "role id");
    eq([role.props.login, role.props.createDatabase, role.props.connectionLimit], [true, true, 5], "role flags");
    eq([role.props.superuser, role.props.inherit, role.props.validUntil], [false, true, "infinity"], "role defaults read");
    eq(role.inputs.__defaults, [], "bridged import inputs carry empty __defaults");
    eq(role.inputs.id, undefined, "inputs have no id");
    const rm = minimalInputs(T.role, role, required(T.role));
    eq(rm.inputs, { name: "app_owner", login: true, createDatabase: true, connectionLimit: 5 }, "role minimal inputs");
    eq(rm.failures, [], "role Check passes");

    // Check fills defaults and reports bad values
    const c = p.check(T.role, { connectionLimit: -3, login: "yes" });
    eq(c.inputs.inherit, true, "Check default inherit");
    eq(c.inputs.__defaults.includes("inherit") && !c.inputs.__defaults.includes("connectionLimit"), true, "__defaults lists filled keys");
    eq(c.failures, [
        { property: "login", reason: "login: expected boolean, got string" },
        { property: "connectionLimit", reason: "connectionLimit must be -1 (no limit) or more" },
    ], "Check failures");

    // Diff paths and kinds
    const autonamed = p.check(T.role, {}, "owner");
    eq(/^owner-[0-9a-f]{7}$/.test(autonamed.inputs.name), true, "Check autonames an absent name");
    eq(p.diff(T.role, role.props, autonamed.inputs).sort(), [
        ["connectionLimit", "UPDATE"], ["createDatabase", "UPDATE"], ["login", "UPDATE"], ["name", "UPDATE"],
    ], "role Diff against defaults");
    eq(p.diff(T.db, { name: "a", encoding: "UTF8" }, { name: "a", encoding: "LATIN1", connectionLimit: -1 }),
        [["connectionLimit", "ADD"], ["encoding", "UPDATE_REPLACE"]], "database Diff with ForceNew");
    eq(p.diff(T.grant, { privileges: ["USAGE", "CREATE"] }, { privileges: ["CREATE", "USAGE"] }), [], "sets compare unordered");

    // Database
    const db = await p.read(T.db, "app_db");
    eq([db.props.owner, db.props.connectionLimit, db.props.allowConnections], ["app_owner", -1, true], "database");
    eq(minimalInputs(T.db, db, required(T.db)).inputs, { name: "app_db" }, "database: only the name to pin");

    // Schema
    const sc = await p.read(T.schema, "app_db.app_schema");
    eq([sc.id, sc.props.name, sc.props.database, sc.props.owner], ["app_db.app_schema", "app_schema", "app_db", "app_owner"], "schema");
    await assert.rejects(p.read(T.schema, "nodot"), /invalid import ID 'nodot': expected <database>.<schema>/);
    checks++;
    eq(await p.read(T.schema, "app_db.missing"), null, "missing schema does not exist");

    // Extension
    const ex = await p.read(T.ext, "app_db.pgcrypto");
    eq([ex.props.name, ex.props.database, ex.props.schema], ["pgcrypto", "app_db", "public"], "extension");
    eq(/^\d+\.\d+$/.test(ex.props.version), true, "extension version");

    // Grants: on a schema and on a database (role and schema names contain `_`)
    const gs = await p.read(T.grant, "app_reader_app_db_app_schema_schema");
    eq([gs.props.role, gs.props.database, gs.props.schema, gs.props.objectType, gs.props.privileges, gs.props.withGrantOption],
        ["app_reader", "app_db", "app_schema", "schema", ["USAGE"], false], "schema grant");
    const gm = minimalInputs(T.grant, gs, required(T.grant));
    eq(gm.inputs, { database: "app_db", objectType: "schema", privileges: ["USAGE"], role: "app_reader", schema: "app_schema" }, "grant minimal inputs");
    const gd = await p.read(T.grant, "app_reader_app_db_database");
    eq(gd.props.privileges, ["CONNECT", "TEMPORARY"], "database grant");
    eq(gd.props.schema, undefined, "database grants have no schema");
    eq(await p.read(T.grant, "app_owner_app_db_app_schema_schema").then((g) => g.props.privileges), ["CREATE", "USAGE"], "owner's schema privileges");
    await assert.rejects(p.read(T.grant, "nobody_app_db_database"), /invalid import ID 'nobody_app_db_database'/);
    checks++;

    // Missing objects
    eq(await p.read(T.role, "no_such_role"), null, "missing role");
    eq(await p.read(T.db, "no_such_db"), null, "missing database");

    await p.close();
    console.log(`postgresql provider handlers: ${checks} checks passed`);
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
