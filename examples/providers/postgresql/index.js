// A test provider for cimport: the PostgreSQL resources of pulumi-postgresql (Role, Database, Schema,
// Extension, Grant), served by Pulumi's own Node.js provider host (`@pulumi/pulumi/provider`'s
// `main`) and reading a real server through its catalogs with the `pg` client.
//
// It serves the real pulumi-postgresql schema (CIMPORT_POSTGRESQL_SCHEMA, else
// $CIMPORT_SHARED_DATA/schemas/postgresql/schema.json, else ../shared/data relative to the repository)
// and behaves on import like the bridged provider (terraform-provider-postgresql):
//   Read   import IDs as upstream: Role = role name, Database = database name,
//          Schema = "<db>.<schema>", Extension = "<db>.<extension>". Grant has no importer upstream;
//          its ID is the one the provider generates, `<role>_<db>[_<schema>]_<objectType>[_<object>...]`
//          (names may contain `_`: the parts are resolved against the catalogs).
//          State = every property the provider records plus `id`; inputs = the set input properties
//          plus `__defaults: []`, as the bridge's import Read returns them. A missing object answers
//          with an empty ID and no properties ("does not exist").
//   Check  fills the Terraform schema defaults and autonames an absent `name` (listing them in
//          `__defaults`), validates types, required properties and Grant object types/privileges.
//   Diff   compares the new inputs with the old state over input properties: set-typed lists compare
//          as sets, empty lists equal absent ones, computed properties absent from the news do not
//          differ; detailed diffs name each property (`*_REPLACE` for ForceNew ones).
// Provider config comes from Configure (`args`, else `variables` `postgresql:config:<key>`, else the
// PG* environment variables): host, port, username, password, sslmode, database.
"use strict";

const crypto = require("crypto");
const fs = require("fs");
const path = require("path");
const pg = require("pg");
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
const provider = require("@pulumi/pulumi/provider");
const provproto = require("@pulumi/pulumi/proto/provider_pb");
const structproto = require("google-protobuf/google/protobuf/struct_pb");

const VERSION = "3.18.0"; // the version of the schema served

function schemaPath() {
    if (process.env.CIMPORT_POSTGRESQL_SCHEMA) return process.env.CIMPORT_POSTGRESQL_SCHEMA;
    if (process.env.CIMPORT_SHARED_DATA) return path.join(process.env.CIMPORT_SHARED_DATA, "schemas/postgresql/schema.json");
    return path.resolve(__dirname, "../../../../shared/data/schemas/postgresql/schema.json");
}
const schemaText = fs.readFileSync(schemaPath(), "utf8");
const schema = JSON.parse(schemaText);

// What the Terraform schema says beyond the Pulumi schema: defaults, computed (optional properties
// the provider fills when absent), ForceNew, and set-typed lists.
const META = {
    Role: {
        defaults: {
            superuser: false, createDatabase: false, createRole: false, inherit: true, login: false,
            replication: false, bypassRowLevelSecurity: false, connectionLimit: -1, encryptedPassword: true,
            validUntil: "infinity", skipDropRole: false, skipReassignOwned: false, statementTimeout: 0,
            idleInTransactionSessionTimeout: 0,
        },
        computed: [],
        forceNew: [],
        sets: ["roles"],
    },
    Database: {
        defaults: { allowConnections: true, connectionLimit: -1, isTemplate: false, alterObjectOwnership: false },
        computed: ["owner", "encoding", "lcCollate", "lcCtype", "template", "tablespaceName"],
        forceNew: ["encoding", "lcCollate", "lcCtype", "template"],
        sets: [],
    },
    Schema: {
        defaults: { ifNotExists: true, dropCascade: false },
        computed: ["database", "owner"],
        forceNew: ["database"],
        sets: ["policies"],
    },
    Extension: {
        defaults: { createCascade: false, dropCascade: false },
        computed: ["database", "schema", "version"],
        forceNew: ["name", "database"],
        sets: [],
    },
    Grant: {
        defaults: { withGrantOption: false },
        computed: [],
        forceNew: ["role", "database", "schema", "objectType", "objects", "columns", "privileges", "withGrantOption"],
        sets: ["objects", "columns", "privileges"],
    },
};

// Privileges each Grant object type accepts (terraform-provider-postgresql's allowedPrivileges).
const PRIVILEGES = {
    database: ["ALL", "CREATE", "CONNECT", "TEMPORARY"],
    schema: ["ALL", "CREATE", "USAGE"],
    table: ["ALL", "SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"],
    sequence: ["ALL", "USAGE", "SELECT", "UPDATE"],
    function: ["ALL", "EXECUTE"],
    procedure: ["ALL", "EXECUTE"],
    routine: ["ALL", "EXECUTE"],
    foreign_data_wrapper: ["ALL", "USAGE"],
    foreign_server: ["ALL", "USAGE"],
    column: ["ALL", "SELECT", "INSERT", "UPDATE", "REFERENCES"],
};
const NO_SCHEMA_TYPES = ["database", "foreign_data_wrapper", "foreign_server"];

class ImportError extends Error {}

function typeOf(urn) {
    const qualified = urn.split("::")[2] || "";
    return qualified.split("$").pop();
}
const kindOf = (type) => type.split(":").pop();

function resourceSchema(type) {
    const r = schema.resources[type];
    if (!r || !META[kindOf(type)]) throw new ImportError(`resource type '${type}' is not served by this provider`);
    return r;
}

// ---- configuration and connections -----------------------------------------------------------------

const CONFIG_KEYS = ["host", "port", "username", "password", "sslmode", "sslMode", "database"];
let config = {};
const clients = new Map(); // database name → connected pg.Client (promise)

function setConfig(args, variables) {
    const c = {};
    for (const k of CONFIG_KEYS) {
        let v = args && args[k];
        if ((v === undefined || v === null) && variables) v = variables[`postgresql:config:${k}`];
        if (v !== undefined && v !== null && v !== "") c[k] = v;
    }
    config = c;
    for (const p of clients.values()) p.then((cl) => cl.end()).catch(() => {});
    clients.clear();
}

function connectionSettings(database) {
    const sslmode = config.sslmode || config.sslMode || process.env.PGSSLMODE || "prefer";
    let ssl = false;
    if (sslmode === "require") ssl = { rejectUnauthorized: false };
    else if (sslmode === "verify-ca" || sslmode === "verify-full") ssl = { rejectUnauthorized: true };
    return {
        host: config.host || process.env.PGHOST || "localhost",
        port: Number(config.port || process.env.PGPORT || 5432),
        user: config.username || process.env.PGUSER || "postgres",
        password: config.password !== undefined ? String(config.password) : process.env.PGPASSWORD,
        database: database || config.database || process.env.PGDATABASE || "postgres",
        ssl,
        connectionTimeoutMillis: 30000,
    };
}

function client(database) {
    const settings = connectionSettings(database);
    const key = settings.database;
    if (!clients.has(key)) {
        const c = new pg.Client(settings);
        const p = c.connect().then(() => c);
        p.catch(() => clients.delete(key));
        clients.set(key, p);
    }
    return clients.get(key);
}

async function query(database, text, params) {
    const c = await client(database);
    return (await c.query(text, params)).rows;
}

async function exists(database, text, params) {
    return (await query(database, text, params)).length > 0;
}

// ---- Read ------------------------------------------------------------------------------------------

function splitDbObject(id, what) {
    const dot = id.indexOf(".");
    if (dot <= 0 || dot === id.length - 1)
        throw new ImportError(`invalid import ID '${id}': expected <database>.<${what}>`);
    return [id.slice(0, dot), id.slice(dot + 1)];
}

async function readRole(id) {
    const rows = await query(null,
        `SELECT r.rolname, r.rolsuper, r.rolinherit, r.rolcreaterole, r.rolcreatedb, r.rolcanlogin,
                r.rolreplication, r.rolbypassrls, r.rolconnlimit, coalesce(r.rolvaliduntil::text, 'infinity') AS validuntil,
                coalesce(r.rolconfig, '{}') AS rolconfig,
                ARRAY(SELECT b.rolname::text FROM pg_auth_members m JOIN pg_roles b ON b.oid = m.roleid
                      WHERE m.member = r.oid ORDER BY b.rolname) AS memberof
           FROM pg_roles r WHERE r.rolname = $1`, [id]);
    if (rows.length === 0) return null;
    const r = rows[0];
    const settings = {};
    for (const s of r.rolconfig) {
        const eq = s.indexOf("=");
        settings[s.slice(0, eq)] = s.slice(eq + 1);
    }
    const state = {
        name: r.rolname, superuser: r.rolsuper, inherit: r.rolinherit, createRole: r.rolcreaterole,
        createDatabase: r.rolcreatedb, login: r.rolcanlogin, replication: r.rolreplication,
        bypassRowLevelSecurity: r.rolbypassrls, connectionLimit: r.rolconnlimit, validUntil: r.validuntil,
        encryptedPassword: true, roles: r.memberof,
        searchPaths: settings.search_path ? settings.search_path.split(/\s*,\s*/) : [],
        statementTimeout: settings.statement_timeout ? parseInt(settings.statement_timeout, 10) : 0,
        idleInTransactionSessionTimeout: settings.idle_in_transaction_session_timeout
            ? parseInt(settings.idle_in_transaction_session_timeout, 10) : 0,
        skipDropRole: false, skipReassignOwned: false,
    };
    if (settings.role) state.assumeRole = settings.role;
    return { id, state };
}

async function readDatabase(id) {
    const rows = await query(null,
        `SELECT d.datname, pg_get_userbyid(d.datdba) AS owner, pg_encoding_to_char(d.encoding) AS encoding,
                d.datcollate, d.datctype, d.datconnlimit, d.datallowconn, d.datistemplate, t.spcname
           FROM pg_database d JOIN pg_tablespace t ON t.oid = d.dattablespace WHERE d.datname = $1`, [id]);
    if (rows.length === 0) return null;
    const d = rows[0];
    return {
        id,
        state: {
            name: d.datname, owner: d.owner, encoding: d.encoding, lcCollate: d.datcollate, lcCtype: d.datctype,
            connectionLimit: d.datconnlimit, allowConnections: d.datallowconn, isTemplate: d.datistemplate,
            tablespaceName: d.spcname, alterObjectOwnership: false,
        },
    };
}

async function dbExists(db) {
    return exists(null, "SELECT 1 FROM pg_database WHERE datname = $1", [db]);
}

async function readSchema(id) {
    const [db, name] = splitDbObject(id, "schema");
    if (!(await dbExists(db))) return null;
    const rows = await query(db,
        "SELECT n.nspname, pg_get_userbyid(n.nspowner) AS owner FROM pg_namespace n WHERE n.nspname = $1", [name]);
    if (rows.length === 0) return null;
    return {
        id,
        state: { name: rows[0].nspname, database: db, owner: rows[0].owner, ifNotExists: true, dropCascade: false, policies: [] },
    };
}

async function readExtension(id) {
    const [db, name] = splitDbObject(id, "extension");
    if (!(await dbExists(db))) return null;
    const rows = await query(db,
        `SELECT e.extname, e.extversion, n.nspname FROM pg_extension e
           JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = $1`, [name]);
    if (rows.length === 0) return null;
    const e = rows[0];
    return {
        id,
        state: { name: e.extname, database: db, schema: e.nspname, version: e.extversion, createCascade: false, dropCascade: false },
    };
}

// Every way to cut `parts` (from `start`) into a name that `test` accepts, longest first.
async function prefixes(parts, start, test) {
    const out = [];
    for (let end = parts.length; end > start; end--) {
        const name = parts.slice(start, end).join("_");
        if (await test(name)) out.push([name, end]);
    }
    return out;
}

// Resolves `<role>_<db>[_<schema>]_<objectType>[_<object>...]` against the catalogs.
async function parseGrantId(id) {
    const parts = id.split("_");
    const roleOk = async (n) => n === "public" || exists(null, "SELECT 1 FROM pg_roles WHERE rolname = $1", [n]);
    for (const [role, afterRole] of await prefixes(parts, 0, roleOk)) {
        for (const [db, afterDb] of await prefixes(parts, afterRole, dbExists)) {
            for (const objectType of Object.keys(PRIVILEGES)) {
                const ot = objectType.split("_");
                const tryAt = async (at, schemaName) => {
                    if (parts.slice(at, at + ot.length).join("_") !== objectType) return null;
                    const rest = parts.slice(at + ot.length);
                    return { role, database: db, schema: schemaName, objectType, objects: rest.length ? [rest.join("_")] : [] };
                };
                if (NO_SCHEMA_TYPES.includes(objectType)) {
                    const g = await tryAt(afterDb, undefined);
                    if (g) return g;
                    continue;
                }
                const nsOk = (n) => exists(db, "SELECT 1 FROM pg_namespace WHERE nspname = $1", [n]);
                for (const [ns, afterNs] of await prefixes(parts, afterDb, nsOk)) {
                    const g = await tryAt(afterNs, ns);
                    if (g) return g;
                }
            }
        }
    }
    throw new ImportError(
        `invalid import ID '${id}': expected <role>_<database>[_<schema>]_<objectType>[_<object>] naming an existing role, database and schema`);
}

async function readGrant(id) {
    const g = await parseGrantId(id);
    // PUBLIC is grantee 0 (no pg_roles row); a real role named "public" cannot exist.
    const grantee = "coalesce((SELECT oid FROM pg_roles WHERE rolname = $2), 0)";
    let rows;
    if (g.objectType === "database") {
        rows = await query(null,
            `SELECT a.privilege_type, a.is_grantable FROM pg_database d,
                    aclexplode(coalesce(d.datacl, acldefault('d', d.datdba))) a
              WHERE d.datname = $1 AND a.grantee = ${grantee}`, [g.database, g.role]);
    } else if (g.objectType === "schema") {
        rows = await query(g.database,
            `SELECT a.privilege_type, a.is_grantable FROM pg_namespace n,
                    aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a
              WHERE n.nspname = $1 AND a.grantee = ${grantee}`, [g.schema, g.role]);
    } else if (g.objectType === "table" || g.objectType === "sequence") {
        const kinds = g.objectType === "table" ? "('r','v','m','f','p')" : "('S')";
        const objFilter = g.objects.length ? "AND c.relname = ANY($3)" : "";
        const all = await query(g.database,
            `SELECT c.relname, a.privilege_type, a.is_grantable FROM pg_class c
               JOIN pg_namespace n ON n.oid = c.relnamespace,
                    aclexplode(coalesce(c.relacl, acldefault(CASE WHEN c.relkind = 'S' THEN 's' ELSE 'r' END, c.relowner))) a
              WHERE n.nspname = $1 AND c.relkind IN ${kinds} ${objFilter}
                AND a.grantee = ${grantee}`,
            g.objects.length ? [g.schema, g.role, g.objects] : [g.schema, g.role]);
        // The privileges every object has (the provider grants the same set on each).
        const per = new Map();
        for (const r of all) {
            if (!per.has(r.relname)) per.set(r.relname, []);
            per.get(r.relname).push(r);
        }
        const lists = [...per.values()];
        rows = lists.length === 0 ? [] : lists[0].filter((r) => lists.every((l) => l.some((x) => x.privilege_type === r.privilege_type)));
    } else {
        throw new ImportError(`reading grants on object type '${g.objectType}' is not supported by this test provider`);
    }
    if (rows.length === 0) return null;
    const state = {
        role: g.role, database: g.database, objectType: g.objectType, objects: g.objects, columns: [],
        privileges: [...new Set(rows.map((r) => r.privilege_type))].sort(),
        withGrantOption: rows.every((r) => r.is_grantable),
    };
    if (g.schema !== undefined) state.schema = g.schema;
    return { id, state };
}

const READERS = { Role: readRole, Database: readDatabase, Schema: readSchema, Extension: readExtension, Grant: readGrant };

// Bridged import: inputs are the set input properties, with an empty `__defaults`.
function inputsFromState(type, state) {
    const r = resourceSchema(type);
    const inputs = {};
    for (const k of Object.keys(r.inputProperties || {})) if (state[k] !== undefined && state[k] !== null) inputs[k] = state[k];
    inputs.__defaults = [];
    return inputs;
}

async function read(type, id) {
    resourceSchema(type);
    const found = await READERS[kindOf(type)](id);
    if (!found) return null;
    return { id: found.id, props: { ...found.state, id: found.id }, inputs: inputsFromState(type, found.state) };
}

// ---- Check -----------------------------------------------------------------------------------------

function typeName(v) {
    if (v === null) return "null";
    if (Array.isArray(v)) return "array";
    return typeof v;
}

// Like the bridge's autonaming: `<resource name>-<7 random hex digits>` for an absent `name`.
function autoName(urnName) {
    return `${urnName}-${crypto.randomBytes(4).toString("hex").slice(0, 7)}`;
}

function check(type, news, urnName) {
    const r = resourceSchema(type);
    const meta = META[kindOf(type)];
    const ins = {};
    for (const [k, v] of Object.entries(news || {})) if (k !== "__defaults") ins[k] = v;
    const failures = [];
    const props = r.inputProperties || {};
    for (const [k, v] of Object.entries(ins)) {
        const p = props[k];
        if (!p) {
            failures.push({ property: k, reason: `Invalid or unknown key` });
            continue;
        }
        if (v === null || v === undefined) continue;
        const want = p.type === "integer" ? "number" : p.type === "boolean" ? "boolean" : p.type === "array" ? "array" : p.type === "string" ? "string" : null;
        if (want && typeName(v) !== want)
            failures.push({ property: k, reason: `${k}: expected ${p.type}, got ${typeName(v)}` });
        else if (p.type === "integer" && !Number.isInteger(v))
            failures.push({ property: k, reason: `${k}: expected an integer, got ${v}` });
    }
    for (const req of r.requiredInputs || [])
        if (ins[req] === undefined || ins[req] === null) failures.push({ property: req, reason: `Missing required property '${req}'` });
    const defaulted = [];
    if (props.name && !(r.requiredInputs || []).includes("name") && (ins.name === undefined || ins.name === null)) {
        ins.name = autoName(urnName || kindOf(type).toLowerCase());
        defaulted.push("name");
    }
    for (const [k, v] of Object.entries(meta.defaults))
        if (ins[k] === undefined || ins[k] === null) {
            ins[k] = v;
            defaulted.push(k);
        }
    if (kindOf(type) === "Role" && typeof ins.connectionLimit === "number" && ins.connectionLimit < -1)
        failures.push({ property: "connectionLimit", reason: "connectionLimit must be -1 (no limit) or more" });
    if (kindOf(type) === "Grant" && typeof ins.objectType === "string") {
        const allowed = PRIVILEGES[ins.objectType];
        if (!allowed) {
            failures.push({ property: "objectType", reason: `expected objectType to be one of [${Object.keys(PRIVILEGES).join(" ")}], got ${ins.objectType}` });
        } else {
            for (const priv of Array.isArray(ins.privileges) ? ins.privileges : [])
                if (!allowed.includes(String(priv).toUpperCase()))
                    failures.push({ property: "privileges", reason: `${priv} is not a valid privilege for object type ${ins.objectType}` });
            if (!NO_SCHEMA_TYPES.includes(ins.objectType) && !ins.schema)
                failures.push({ property: "schema", reason: `parameter 'schema' is mandatory for postgresql_grant resource with objectType ${ins.objectType}` });
        }
    }
    ins.__defaults = defaulted.sort();
    return { inputs: ins, failures };
}

// ---- Diff ------------------------------------------------------------------------------------------

const isEmpty = (v) => v === undefined || v === null || (Array.isArray(v) && v.length === 0);

function sameValue(a, b, isSet) {
    if (isEmpty(a) && isEmpty(b)) return true;
    if (Array.isArray(a) && Array.isArray(b) && isSet)
        return JSON.stringify([...a].map(String).sort()) === JSON.stringify([...b].map(String).sort());
    return JSON.stringify(a) === JSON.stringify(b);
}

function diff(type, olds, news) {
    const r = resourceSchema(type);
    const meta = META[kindOf(type)];
    const changes = [];
    for (const k of Object.keys(r.inputProperties || {})) {
        const o = olds[k], n = news[k];
        if (sameValue(o, n, meta.sets.includes(k))) continue;
        let kind;
        if (isEmpty(n)) {
            if (meta.computed.includes(k)) continue; // the provider keeps what it computed
            kind = "DELETE";
        } else {
            kind = isEmpty(o) ? "ADD" : "UPDATE";
        }
        changes.push([k, meta.forceNew.includes(k) ? `${kind}_REPLACE` : kind]);
    }
    return changes;
}

// ---- the provider on Pulumi's Node host --------------------------------------------------------------

const postgresqlProvider = {
    version: VERSION,
    schema: schemaText,
    async check(urn, olds, news) {
        return check(typeOf(urn), news, urn.split("::").slice(3).join("::"));
    },
    async diff(id, urn, olds, news) {
        const changes = diff(typeOf(urn), olds, news);
        return {
            changes: changes.length > 0,
            replaces: changes.filter(([, k]) => k.endsWith("_REPLACE")).map(([p]) => p),
            deleteBeforeReplace: false,
        };
    },
};

// The Node host (3.248) ignores Configure's config, cannot answer "does not exist" from Read, and
// forwards only changes/replaces from Diff; these handlers are wrapped to do what Go providers do.
const KIND = provproto.PropertyDiff.Kind;
const addService = grpc.Server.prototype.addService;
grpc.Server.prototype.addService = function (service, impl) {
    if (impl && typeof impl.configure === "function") {
        const original = impl.configure.bind(impl);
        impl.configure = (call, callback) => {
            const req = call.request;
            const vars = {};
            req.getVariablesMap().forEach((v, k) => (vars[k] = v));
            setConfig(req.hasArgs() ? req.getArgs().toJavaScript() : {}, vars);
            original(call, callback);
        };
    }
    if (impl && typeof impl.read === "function") {
        impl.read = (call, callback) => {
            const req = call.request;
            read(typeOf(req.getUrn()), req.getId()).then(
                (res) => {
                    const resp = new provproto.ReadResponse();
                    if (res) {
                        resp.setId(res.id);
                        resp.setProperties(structproto.Struct.fromJavaScript(res.props));
                        resp.setInputs(structproto.Struct.fromJavaScript(res.inputs));
                    }
                    callback(undefined, resp);
                },
                (err) => callback({ code: grpc.status.UNKNOWN, details: err.message }, undefined),
            );
        };
    }
    if (impl && typeof impl.diff === "function") {
        const original = impl.diff.bind(impl);
        impl.diff = (call, callback) =>
            original(call, (err, resp) => {
                if (!err && resp) {
                    const req = call.request;
                    const changes = diff(typeOf(req.getUrn()), req.getOlds().toJavaScript(), req.getNews().toJavaScript());
                    resp.setDiffsList(changes.map(([p]) => p));
                    const m = resp.getDetaileddiffMap();
                    for (const [p, kind] of changes) {
                        const pd = new provproto.PropertyDiff();
                        pd.setKind(KIND[kind]);
                        pd.setInputdiff(false);
                        m.set(p, pd);
                    }
                    resp.setHasdetaileddiff(true);
                }
                callback(err, resp);
            });
    }
    return addService.call(this, service, impl);
};

module.exports = { read, check, diff, setConfig, parseGrantId, close: () => Promise.all([...clients.values()].map((p) => p.then((c) => c.end()).catch(() => {}))) };

if (require.main === module) provider.main(postgresqlProvider, process.argv.slice(2));
