// A test provider for cimport: the resources of pulumi-random, served by Pulumi's own Node.js
// provider host (`@pulumi/pulumi/provider`'s `main`), so cimport's gRPC client is exercised against
// the same server stack (grpc-js) and request handling real Node providers use.
//
// It serves the real pulumi-random schema (CIMPORT_RANDOM_SCHEMA, else ../shared/data relative to the
// repository) and implements what an import needs, the way pulumi-random (terraform-provider-random)
// imports each type — the import ID carries the value:
//   RandomPassword  ID = the password; ID becomes "none", `result` and `bcryptHash` are secrets
//   RandomString    ID = the string (also the new ID)
//   RandomInteger   ID = "result,min,max[,seed]"
//   RandomId        ID = "[prefix,]b64url" (the new ID is the b64url part)
//   RandomBytes     ID = base64 of the bytes; `base64`/`hex` are secrets
//   RandomUuid, RandomUuid4, RandomUuid7  ID = the UUID
//   RandomPet, RandomShuffle  no importer upstream (terraform-provider-random implements no ImportState
//                   for them): an import fails as the bridged provider's does, "Resource Import Not
//                   Implemented"; a refresh (Read with a state) keeps the state
// Check fills the defaults the schema documents and reports invalid inputs; Diff compares the new
// inputs with the old state and reports every difference by detailed property path. Pulumi's Node
// host (3.248) forwards only `changes`/`replaces` from diff, so the service registration is wrapped
// to add `diffs` and `detailedDiff` (as Go providers send them).
"use strict";

const fs = require("fs");
const path = require("path");
const crypto = require("crypto");
const bcrypt = require("bcryptjs");
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
const provider = require("@pulumi/pulumi/provider");
const provproto = require("@pulumi/pulumi/proto/provider_pb");

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
const VERSION = "4.21.1"; // the version of the schema served

function schemaPath() {
    if (process.env.CIMPORT_RANDOM_SCHEMA) return process.env.CIMPORT_RANDOM_SCHEMA;
    return path.resolve(__dirname, "../../../../shared/data/schemas/random/schema.json");
}
const schemaText = fs.readFileSync(schemaPath(), "utf8");
const schema = JSON.parse(schemaText);

const secret = (v) => ({ [SIG]: SECRET, value: v });
const isSecret = (v) => v !== null && typeof v === "object" && v[SIG] === SECRET;
const unwrap = (v) => (isSecret(v) ? unwrap(v.value) : v);

function typeOf(urn) {
    const qualified = urn.split("::")[2] || "";
    return qualified.split("$").pop();
}

class ImportError extends Error {}

function passwordLike(id) {
    return {
        length: [...id].length, lower: true, minLower: 0, minNumeric: 0, minSpecial: 0, minUpper: 0,
        number: true, numeric: true, special: true, upper: true,
    };
}

function parseIntStrict(s, what, id) {
    if (!/^-?\d+$/.test(s)) throw new ImportError(`invalid import ID '${id}': ${what} '${s}' is not an integer; use result,min,max[,seed]`);
    return Number(s);
}

function fromB64Url(s) {
    if (!/^[A-Za-z0-9_-]*$/.test(s)) return null;
    return Buffer.from(s, "base64url");
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

// Read with only an ID (an import): the state and the inputs as Check would return them.
function readImport(type, id) {
    const name = type.split(":").pop();
    switch (name) {
    case "RandomPassword": {
        const ins = passwordLike(id);
        const props = { ...ins, id: "none", result: secret(id), bcryptHash: secret(bcrypt.hashSync(id, 10)) };
        return { id: "none", props, inputs: ins };
    }
    case "RandomString": {
        const ins = passwordLike(id);
        return { id, props: { ...ins, id, result: id }, inputs: ins };
    }
    case "RandomInteger": {
        const parts = id.split(",");
        if (parts.length < 3 || parts.length > 4)
            throw new ImportError(`invalid import ID '${id}': expected result,min,max[,seed]`);
        const result = parseIntStrict(parts[0], "result", id);
        const min = parseIntStrict(parts[1], "min", id);
        const max = parseIntStrict(parts[2], "max", id);
        if (min > max) throw new ImportError(`invalid import ID '${id}': min ${min} is greater than max ${max}`);
        if (result < min || result > max)
            throw new ImportError(`invalid import ID '${id}': result ${result} is not between min and max`);
        const ins = { min, max };
        if (parts.length === 4) ins.seed = parts[3];
        return { id: parts[0], props: { ...ins, id: parts[0], result }, inputs: ins };
    }
    case "RandomId": {
        const comma = id.indexOf(",");
        const prefix = comma >= 0 ? id.slice(0, comma) : "";
        const b64url = comma >= 0 ? id.slice(comma + 1) : id;
        const bytes = fromB64Url(b64url);
        if (!bytes || bytes.length === 0)
            throw new ImportError(`invalid import ID '${id}': expected [prefix,]base64url bytes`);
        const ins = { byteLength: bytes.length };
        if (prefix) ins.prefix = prefix;
        const props = {
            ...ins, id: b64url,
            b64Url: prefix + bytes.toString("base64url"),
            b64Std: prefix + bytes.toString("base64"),
            hex: prefix + bytes.toString("hex"),
            dec: prefix + BigInt("0x" + bytes.toString("hex")).toString(10),
        };
        return { id: b64url, props, inputs: ins };
    }
    case "RandomBytes": {
        if (!/^[A-Za-z0-9+/]*={0,2}$/.test(id)) throw new ImportError(`invalid import ID '${id}': expected base64 bytes`);
        const bytes = Buffer.from(id, "base64");
        const ins = { length: bytes.length };
        return { id: "none", props: { ...ins, id: "none", base64: secret(id), hex: secret(bytes.toString("hex")) }, inputs: ins };
    }
    case "RandomUuid":
    case "RandomUuid4":
    case "RandomUuid7":
        if (!UUID.test(id)) throw new ImportError(`invalid import ID '${id}': expected a UUID`);
        return { id, props: { id, result: id }, inputs: {} };
    case "RandomPet":
    case "RandomShuffle":
        throw new ImportError("Resource Import Not Implemented: This resource does not support import. Please contact the provider developer for additional information.");
    default:
        throw new ImportError(`resource type '${type}' cannot be imported`);
    }
}

function resourceSchema(type) {
    const r = schema.resources[type];
    if (!r) throw new ImportError(`unknown resource type '${type}'`);
    return r;
}

function check(type, news) {
    const r = resourceSchema(type);
    const name = type.split(":").pop();
    const ins = { ...news };
    const failures = [];
    for (const req of r.requiredInputs || [])
        if (ins[req] === undefined || ins[req] === null) failures.push({ property: req, reason: `Missing required property '${req}'` });
    if (name === "RandomPassword" || name === "RandomString") {
        for (const k of ["lower", "upper", "special"]) if (ins[k] === undefined) ins[k] = true;
        // `number` is the deprecated spelling of `numeric`; each defaults to the other.
        if (ins.numeric === undefined) ins.numeric = ins.number === undefined ? true : ins.number;
        if (ins.number === undefined) ins.number = ins.numeric;
        for (const k of ["minLower", "minUpper", "minNumeric", "minSpecial"]) if (ins[k] === undefined) ins[k] = 0;
        const length = unwrap(ins.length);
        const mins = ["minLower", "minUpper", "minNumeric", "minSpecial"].reduce((s, k) => s + unwrap(ins[k]), 0);
        if (typeof length === "number" && length < 1) failures.push({ property: "length", reason: "length must be at least 1" });
        if (typeof length === "number" && length < mins)
            failures.push({ property: "length", reason: `length (${length}) must be at least the sum of the min* values (${mins})` });
    } else if (name === "RandomInteger") {
        if (typeof ins.min === "number" && typeof ins.max === "number" && ins.min > ins.max)
            failures.push({ property: "max", reason: `max (${ins.max}) must be greater than or equal to min (${ins.min})` });
    } else if (name === "RandomId") {
        if (typeof ins.byteLength === "number" && ins.byteLength < 1) failures.push({ property: "byteLength", reason: "byteLength must be at least 1" });
    } else if (name === "RandomPet") {
        if (ins.length === undefined) ins.length = 2;
        if (ins.separator === undefined) ins.separator = "-";
    }
    return { inputs: ins, failures };
}

function pathKey(base, key) {
    return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? (base ? `${base}.${key}` : key) : `${base}[${JSON.stringify(key)}]`;
}

// Every difference between an old and a new value, as [path, kind] pairs.
function walk(base, a, b, out) {
    a = unwrap(a);
    b = unwrap(b);
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
    if (isObj(a) && isObj(b)) {
        for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
            if (!(k in a)) out.push([pathKey(base, k), "ADD"]);
            else if (!(k in b)) out.push([pathKey(base, k), "DELETE"]);
            else walk(pathKey(base, k), a[k], b[k], out);
        }
        return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
        for (let i = 0; i < Math.max(a.length, b.length); i++) {
            const p = `${base}[${i}]`;
            if (i >= a.length) out.push([p, "ADD"]);
            else if (i >= b.length) out.push([p, "DELETE"]);
            else walk(p, a[i], b[i], out);
        }
        return;
    }
    out.push([base, "UPDATE"]);
}

// Diff of new inputs against the old state over the type's input properties. Every input of a random
// resource forces replacement (pulumi-random marks them all replaceOnChanges).
function diff(type, olds, news) {
    const r = resourceSchema(type);
    const changes = [];
    for (const k of Object.keys(r.inputProperties || {})) {
        const inOld = olds[k] !== undefined && olds[k] !== null;
        const inNew = news[k] !== undefined && news[k] !== null;
        if (!inOld && !inNew) continue;
        if (!inOld) changes.push([pathKey("", k), "ADD"]);
        else if (!inNew) changes.push([pathKey("", k), "DELETE"]);
        else walk(pathKey("", k), olds[k], news[k], changes);
    }
    const top = [...new Set(changes.map(([p]) => p.split(/[.[]/)[0]))];
    return { changes, top };
}

const randomProvider = {
    version: VERSION,
    schema: schemaText,
    async read(id, urn, props) {
        const type = typeOf(urn);
        // A refresh (state given) keeps the state; an import derives it from the ID.
        if (props && Object.keys(props).length > 0) return { id, props, inputs: undefined };
        return readImport(type, id);
    },
    async check(urn, olds, news) {
        return check(typeOf(urn), news);
    },
    async diff(id, urn, olds, news) {
        const d = diff(typeOf(urn), olds, news);
        return { changes: d.changes.length > 0, replaces: d.top, deleteBeforeReplace: false };
    },
};

// Adds `diffs` and `detailedDiff` to Diff responses (see the file comment).
const KIND = provproto.PropertyDiff.Kind;
const addService = grpc.Server.prototype.addService;
grpc.Server.prototype.addService = function (service, impl) {
    if (impl && typeof impl.diff === "function") {
        const original = impl.diff.bind(impl);
        impl.diff = (call, callback) =>
            original(call, (err, resp) => {
                if (!err && resp) {
                    const req = call.request;
                    const d = diff(typeOf(req.getUrn()), req.getOlds().toJavaScript(), req.getNews().toJavaScript());
                    resp.setDiffsList(d.top);
                    const m = resp.getDetaileddiffMap();
                    for (const [p, kind] of d.changes) {
                        const pd = new provproto.PropertyDiff();
                        pd.setKind(KIND[`${kind}_REPLACE`]);
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

provider.main(randomProvider, process.argv.slice(2));
