// A fault-injection test provider for cimport's plugin host, served by Pulumi's own Node.js provider
// host (`@pulumi/pulumi/provider`'s `main`). It has one resource type, `fault:index:Thing` (input and
// output `value`, a string), and misbehaves on purpose depending on the import ID:
//
//   crash          Read writes a last word on stderr and the process exits with status 70
//   crash-check    Read answers; Check crashes the same way
//   hang           Read never answers (the handler awaits forever; other calls are still served)
//   malformed      Read answers with bytes that are not a ReadResponse (a truncated protobuf field)
//   badvalue       Read answers with a property holding an object of an unknown Pulumi signature
//   checkfail      Read answers; Check reports a failure for `value` and one for the whole resource
//   config         Read answers with `value` = the JSON of the provider config Configure received
//   log            Read logs one message at each severity (debug, info, warning, error) through the
//                  engine endpoint (argv[2] / Attach), attributed to the resource's URN, then answers
//   hugeclaim      Read answers with a gRPC message prefix that announces 2 GiB, sends nothing more and
//                  never ends the stream (a plugin that would hold a client without a size cap forever)
//   slow-N         Read answers after N milliseconds
//   anything else  a well-behaved resource whose `value` is the ID
//
// FAULT_CHECKCONFIG=1 makes CheckConfig answer with the config it got plus `checked: "by-fault"`.
//
// FAULT_PROVIDER_STARTUP=crash|silent|noport|slow makes the process exit before printing its port,
// never print it, print something that is not a port, or print it after 3 seconds.
"use strict";

const path = require("path");
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
const provider = require("@pulumi/pulumi/provider");
const enginepb = require("@pulumi/pulumi/proto/engine_pb");
const enginerpc = require("@pulumi/pulumi/proto/engine_grpc_pb");
const fs = require("fs");

const VERSION = "1.0.0";
const TYPE = "fault:index:Thing";
const SIG = "4dabf18193072939515e22adb298388d";

// Its provider's configuration (config.variables, the provider's inputProperties): what the tests give a
// default provider (Pulumi.<stack>.yaml) and an explicit one (its `inputs` in the import file).
const CONFIG = {
    region: { type: "string" },
    zone: { type: "string" },
    retries: { type: "string" },
    token: { type: "string", secret: true },
    assumeRole: { type: "object", additionalProperties: { type: "string" } },
};

const schema = {
    name: "fault",
    version: VERSION,
    config: { variables: CONFIG },
    provider: { inputProperties: CONFIG },
    resources: {
        [TYPE]: {
            properties: { value: { type: "string" } },
            required: ["value"],
            inputProperties: { value: { type: "string" } },
            requiredInputs: ["value"],
        },
    },
};

function die(where, id) {
    // Synchronous, so the words are on the pipe before the process is gone.
    fs.writeSync(2, `fault provider: crashing on purpose in ${where} of '${id}'\n`);
    fs.writeSync(2, "fault provider: goodbye\n");
    process.exit(70);
}

let engine;
function engineClient() {
    const addr = server && server.engineAddr;
    if (!addr) return undefined;
    if (!engine) engine = new enginerpc.EngineClient(addr, grpc.credentials.createInsecure());
    return engine;
}

function log(severity, message, urn) {
    return new Promise((resolve, reject) => {
        const client = engineClient();
        if (!client) return reject(new Error("no engine address to log to"));
        const req = new enginepb.LogRequest();
        req.setSeverity(severity);
        req.setMessage(message);
        req.setUrn(urn);
        client.log(req, (err) => (err ? reject(err) : resolve()));
    });
}

let configured = null; // the `args` of the last Configure (the Node host itself ignores them)
const idOf = new Map(); // URN → import ID, so Check can tell which fault a resource carries

const faultProvider = {
    version: VERSION,
    schema: JSON.stringify(schema),
    async read(id, urn) {
        idOf.set(urn, id);
        if (id.startsWith("slow-")) await new Promise((r) => setTimeout(r, Number(id.slice(5)) || 0));
        switch (id) {
        case "crash": die("Read", id); break;
        case "hang": await new Promise(() => {}); break;
        case "config": return { id, props: { value: JSON.stringify(configured) }, inputs: { value: id } };
        case "badvalue": return { id, props: { value: { [SIG]: "not-a-known-signature" } }, inputs: { value: id } };
        case "log": {
            const S = enginepb.LogSeverity;
            await log(S.DEBUG, "fault provider: debug message from Read", urn);
            await log(S.INFO, "fault provider: info message from Read", urn);
            await log(S.WARNING, "fault provider: warning message from Read", urn);
            await log(S.ERROR, "fault provider: error message from Read", urn);
            break;
        }
        }
        return { id, props: { value: id }, inputs: { value: id } };
    },
    async check(urn, olds, news) {
        const id = idOf.get(urn);
        if (id === "crash-check") die("Check", id);
        if (id === "checkfail")
            return { inputs: news, failures: [{ property: "value", reason: "value is not allowed by the fault provider" },
                                              { property: "", reason: "the whole resource is rejected" }] };
        return { inputs: news, failures: [] };
    },
    async diff(id, urn, olds, news) {
        const changed = JSON.stringify(olds.value) !== JSON.stringify(news.value);
        return { changes: changed, replaces: [], deleteBeforeReplace: false };
    },
};

// "hugeclaim": grpc-js frames each message itself (5-byte prefix + bytes), so its framing is wrapped:
// a marked response goes out as a bare prefix claiming 0x80000000 bytes, and the call's status (the
// trailers that would end the stream) is never sent.
const interceptors = require(require.resolve("@grpc/grpc-js/build/src/server-interceptors", { paths: [pulumiDir] }));
const baseCall = interceptors.BaseServerInterceptingCall.prototype;
const serializeMessage = baseCall.serializeMessage;
baseCall.serializeMessage = function (value) {
    if (value && value.hugeclaim) {
        this.cimportHugeClaim = true;
        const out = Buffer.alloc(5);
        out.writeUInt32BE(0x80000000, 1);
        return out;
    }
    return serializeMessage.call(this, value);
};
const sendStatus = baseCall.sendStatus;
baseCall.sendStatus = function (status) {
    if (this.cimportHugeClaim) return;
    return sendStatus.call(this, status);
};

// The Node host serializes responses itself; to send bytes that are not a ReadResponse, the service's
// Read serializer is wrapped to answer a marked response with a length-delimited field that claims
// more bytes than follow. The Server instance is kept to learn the engine address (argv or Attach).
let server;
const addService = grpc.Server.prototype.addService;
grpc.Server.prototype.addService = function (service, impl) {
    if (service.read && impl && typeof impl.read === "function") {
        server = impl;
        if (process.env.FAULT_CHECKCONFIG) {
            // CheckConfig as a provider that fills in a default answers it: the news with `checked` added
            // (the Node host itself answers UNIMPLEMENTED)
            const providerpb = require("@pulumi/pulumi/proto/provider_pb");
            const structpb = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [pulumiDir] }));
            impl.checkConfig = (call, callback) => {
                const news = call.request.getNews() ? call.request.getNews().toJavaScript() : {};
                const resp = new providerpb.CheckResponse();
                resp.setInputs(structpb.Struct.fromJavaScript({ ...news, checked: "by-fault" }));
                callback(null, resp);
            };
        }
        const configure = impl.configure.bind(impl);
        impl.configure = (call, callback) => {
            configured = call.request.getArgs() ? call.request.getArgs().toJavaScript() : null;
            configure(call, callback);
        };
        const read = impl.read.bind(impl);
        impl.read = (call, callback) =>
            read(call, (err, resp) => {
                if (!err && resp && call.request.getId() === "malformed") resp.malformed = true;
                if (!err && resp && call.request.getId() === "hugeclaim") resp.hugeclaim = true;
                callback(err, resp);
            });
        const def = { ...service.read };
        const ser = def.responseSerialize;
        def.responseSerialize = (resp) => (resp && resp.malformed ? Buffer.from([0x12, 0x7f, 0x01]) : ser(resp));
        service = { ...service, read: def };
    }
    return addService.call(this, service, impl);
};

const startup = process.env.FAULT_PROVIDER_STARTUP;
if (startup === "crash") {
    fs.writeSync(2, "fault provider: cannot start: FAULT_PROVIDER_STARTUP=crash\n");
    process.exit(3);
} else if (startup === "silent") {
    fs.writeSync(2, "fault provider: staying silent\n");
    setInterval(() => {}, 1000);
} else if (startup === "noport") {
    process.stdout.write("hello from the fault provider\n");
    setInterval(() => {}, 1000);
} else if (startup === "slow") {
    setTimeout(() => provider.main(faultProvider, process.argv.slice(2)), 3000);
} else {
    provider.main(faultProvider, process.argv.slice(2));
}
