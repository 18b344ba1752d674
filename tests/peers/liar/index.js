// A test provider that answers Read and Diff in ways a real provider may (legal on the wire, or
// wrong in ways Pulumi's engine refuses), served by Pulumi's own Node.js provider host like
// examples/providers. One type, `liar:index:Thing`: inputs name (required), size, region, tags;
// outputs those and `arn`. The import ID is "MODE:NAME"; the mode picks the behaviour:
//
//   honest      Read: inputs and state of NAME; Diff: a detailed diff of the inputs (olds vs news)
//   nodetail    as honest, but Diff says only "changes" (DIFF_SOME) without naming a property
//   noinputs    Read returns the state but empty inputs; Diff as nodetail
//   stateonly   `size` is in the state only (not in Read's inputs); Diff as nodetail
//   gone        Read answers ID "" and no properties: how the Node host says "does not exist"
//   goneid      Read answers ID "" but full properties
//   unknown     Read's `region` is the unknown (computed) value, in inputs and state
//   stuckname   Diff always names `name` as UPDATE_REPLACE (replaces: name, deleteBeforeReplace)
//   stucksize   Diff always names `size` (UPDATE), whatever the news, even with ignoreChanges
//   ignoresize  Diff names `size` unless the request's ignoreChanges holds it (as Go providers do)
//   diffarn     Diff names `arn` (an output, not a schema input) unless the news hold it
//   checkfail   Check answers a failure for `size` (whatever the inputs); Diff as honest
//   alias       Read answers ID "canon" (and canon's properties): another name of one object, as a
//               name and an ARN resolve to the same one
//   aliasslow   as alias, answered 400 ms later
//   hangread    Read never answers (a provider stuck on one resource, for a run stopped meanwhile);
//               it writes the ID to the file $LIAR_MARK first, when set
//   unknownextra   Read's inputs also hold `legacyFlag` (no schema input); Diff answers DIFF_UNKNOWN
//   unknowndefault Read's inputs lack `region` (which has a schema default); Check fills it in;
//                  Diff answers DIFF_UNKNOWN
//
// LIAR_HANG=schema: GetSchema never answers (a provider hung at its start).
//
// The Node host's own Diff cannot send detailed diffs nor read ignoreChanges, so this file answers
// the Diff RPC itself (the service's `diff` is replaced when the host registers it).
"use strict";

const path = require("path");
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
const provider = require("@pulumi/pulumi/provider");
const provproto = require("@pulumi/pulumi/proto/provider_pb");

const TYPE = "liar:index:Thing";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const INPUTS = ["name", "size", "region", "tags"];

const schema = {
    name: "liar",
    version: "1.0.0",
    // its provider's configuration: what an explicit provider's `inputs` in the import file may set
    config: { variables: { region: { type: "string" } } },
    provider: { inputProperties: { region: { type: "string" } } },
    resources: {
        [TYPE]: {
            properties: {
                name: { type: "string" },
                size: { type: "integer" },
                region: { type: "string" },
                tags: { type: "object", additionalProperties: { type: "string" } },
                arn: { type: "string" },
            },
            required: ["name", "arn"],
            inputProperties: {
                name: { type: "string" },
                size: { type: "integer" },
                region: { type: "string", default: "eu-west-1" },
                tags: { type: "object", additionalProperties: { type: "string" } },
            },
            requiredInputs: ["name"],
        },
    },
};

const modeOf = (id) => String(id || "").split(":")[0];
const nameOf = (id) => String(id || "").split(":").slice(1).join(":") || String(id);
const idOf = new Map(); // URN → import ID (Check and Diff carry no import ID)

function inputsOf(name) {
    return { name, size: 3, region: "eu-west-1", tags: { team: "a" } };
}

const liar = {
    version: "1.0.0",
    schema: JSON.stringify(schema),
    async read(id, urn) {
        idOf.set(urn, id);
        const mode = modeOf(id);
        const name = nameOf(id);
        if (mode === "gone") return { id: "", props: {}, inputs: {} };
        const inputs = inputsOf(name);
        const state = { ...inputs, arn: "arn:" + name };
        if (mode === "goneid") return { id: "", props: state, inputs };
        if (mode === "noinputs") return { id, props: state, inputs: {} };
        if (mode === "stateonly") delete inputs.size;
        if (mode === "unknown") inputs.region = state.region = UNKNOWN;
        if (mode === "aliasslow") await new Promise((done) => setTimeout(done, 400));
        if (mode === "hangread") {
            if (process.env.LIAR_MARK) require("fs").writeFileSync(process.env.LIAR_MARK, id);
            await new Promise(() => {});
        }
        if (mode === "alias" || mode === "aliasslow") {
            const canon = inputsOf("canon");
            return { id: "canon", props: { ...canon, arn: "arn:canon" }, inputs: canon };
        }
        if (mode === "unknownextra") inputs.legacyFlag = true;
        if (mode === "unknowndefault") delete inputs.region;
        return { id, props: state, inputs };
    },
    async check(urn, olds, news) {
        const mode = modeOf(idOf.get(urn));
        if (mode === "checkfail") return { inputs: news, failures: [{ property: "size", reason: "size is too small" }] };
        if (mode === "unknowndefault" && news.region === undefined) return { inputs: { ...news, region: "eu-west-1" }, failures: [] };
        return { inputs: news, failures: [] };
    },
};

// The Diff RPC: olds are the state Read returned, news the checked inputs.
function diff(call, callback) {
    const req = call.request;
    const olds = req.getOlds() ? req.getOlds().toJavaScript() : {};
    const news = req.getNews() ? req.getNews().toJavaScript() : {};
    const ignore = req.getIgnorechangesList();
    const mode = modeOf(idOf.get(req.getUrn()) || req.getId());
    const K = provproto.PropertyDiff.Kind;
    const C = provproto.DiffResponse.DiffChanges;
    let detail = []; // [path, kind]
    let replaces = [];
    let named = true;
    if (mode.startsWith("unknown")) {
        callback(undefined, new provproto.DiffResponse()); // changes DIFF_UNKNOWN, nothing else
        return;
    }
    if (mode === "stuckname") {
        detail = [["name", K.UPDATE_REPLACE]];
        replaces = ["name"];
    } else if (mode === "stucksize") {
        detail = [["size", K.UPDATE]];
    } else if (mode === "ignoresize") {
        if (!ignore.includes("size")) detail = [["size", K.UPDATE]];
    } else if (mode === "diffarn") {
        if (news.arn === undefined) detail = [["arn", K.UPDATE]];
    } else {
        for (const k of INPUTS) {
            const a = JSON.stringify(olds[k]);
            const b = JSON.stringify(news[k]);
            if (a === b) continue;
            detail.push([k, a === undefined ? K.ADD : b === undefined ? K.DELETE : K.UPDATE]);
        }
        named = !["nodetail", "noinputs", "stateonly"].includes(mode);
    }
    const resp = new provproto.DiffResponse();
    resp.setChanges(detail.length ? C.DIFF_SOME : C.DIFF_NONE);
    if (replaces.length) {
        resp.setReplacesList(replaces);
        resp.setDeletebeforereplace(true);
    }
    if (named && detail.length) {
        resp.setDiffsList(detail.map(([p]) => p));
        const m = resp.getDetaileddiffMap();
        for (const [p, kind] of detail) {
            const pd = new provproto.PropertyDiff();
            pd.setKind(kind);
            m.set(p, pd);
        }
        resp.setHasdetaileddiff(true);
    }
    callback(undefined, resp);
}

const addService = grpc.Server.prototype.addService;
grpc.Server.prototype.addService = function (service, impl) {
    if (service.diff && impl && typeof impl.diff === "function") impl.diff = diff;
    if (process.env.LIAR_HANG === "schema" && impl && typeof impl.getSchema === "function") impl.getSchema = () => {};
    return addService.call(this, service, impl);
};

provider.main(liar, process.argv.slice(2));
