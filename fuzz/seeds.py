#!/usr/bin/env python3
"""seeds.py — writes the seed corpus of one fuzz target into a directory, from ../shared/data and the
test fixtures (generated at run time, not committed). Usage: seeds.py TARGET OUTDIR SOURCE_DIR."""
import glob
import json
import os
import struct
import sys

target, out, src = sys.argv[1], sys.argv[2], sys.argv[3]
data = os.path.join(src, "..", "shared", "data")
fx = os.path.join(src, "tests", "fixtures")
MAX = 256 * 1024
os.makedirs(out, exist_ok=True)
n = 0


def put(blob):
    global n
    if isinstance(blob, str):
        blob = blob.encode()
    if len(blob) > MAX:
        return
    n += 1
    with open(os.path.join(out, "seed-%04d" % n), "wb") as f:
        f.write(blob)


def files(*patterns):
    for p in patterns:
        for f in sorted(glob.glob(p, recursive=True)):
            if os.path.isfile(f) and os.path.getsize(f) <= MAX:
                with open(f, "rb") as fh:
                    yield fh.read()


def state_docs():
    return files(data + "/pulumi-state/**/*.json", data + "/checkpoints/*.json", fx + "/stackstate/*.json",
                 fx + "/cli/*.json", fx + "/engine/state.json", src + "/examples/quickstart/stack.json")


# --- protobuf encoding (for ReadResponse seeds) ---------------------------------------------------
def varint(v):
    b = bytearray()
    while True:
        x = v & 0x7F
        v >>= 7
        if v:
            b.append(x | 0x80)
        else:
            b.append(x)
            return bytes(b)


def field(num, wire, payload):
    if wire == 2:
        return varint(num << 3 | 2) + varint(len(payload)) + payload
    if wire == 1:
        return varint(num << 3 | 1) + payload
    return varint(num << 3 | wire) + varint(payload)


def pb_value(v):
    if v is None:
        return field(1, 0, 0)
    if isinstance(v, bool):
        return field(4, 0, int(v))
    if isinstance(v, (int, float)):
        return field(2, 1, struct.pack("<d", float(v)))
    if isinstance(v, str):
        return field(3, 2, v.encode())
    if isinstance(v, list):
        return field(6, 2, b"".join(field(1, 2, pb_value(x)) for x in v))
    return field(5, 2, pb_struct(v))


def pb_struct(obj):
    return b"".join(field(1, 2, field(1, 2, k.encode()) + field(2, 2, pb_value(v))) for k, v in obj.items())


def read_response(id_, props, inputs):
    return field(1, 2, id_.encode()) + field(2, 2, pb_struct(props)) + field(3, 2, pb_struct(inputs or {}))


def h2_frame(ftype, flags, stream, payload):
    return struct.pack(">I", len(payload))[1:] + bytes([ftype, flags]) + struct.pack(">I", stream) + payload


def hpack_literal(name, value):
    # literal header field without indexing, new name (RFC 7541 §6.2.2)
    return b"\x00" + bytes([len(name)]) + name.encode() + bytes([len(value)]) + value.encode()


def grpc_response(msg, status="0", message=""):
    settings = h2_frame(4, 0, 0, b"")
    ack = h2_frame(4, 1, 0, b"")
    headers = h2_frame(1, 4, 1, b"\x88" + hpack_literal("content-type", "application/grpc"))
    body = h2_frame(0, 0, 1, b"\x00" + struct.pack(">I", len(msg)) + msg)
    trailer = hpack_literal("grpc-status", status) + (hpack_literal("grpc-message", message) if message else b"")
    trailers = h2_frame(1, 5, 1, trailer)
    return settings + ack + headers + body + trailers


def lsp(*msgs):
    out = b""
    for m in msgs:
        body = json.dumps(m).encode()
        out += b"Content-Length: %d\r\n\r\n" % len(body) + body
    return out


if target == "importfile":
    for b in files(fx + "/importfile/*.json", fx + "/importfile/*.yaml", src + "/examples/quickstart/imports.json",
                   data + "/pulumi-importer/**/*.json"):
        put(b)
elif target == "schema":
    for b in files(data + "/schemas/**/schema*.json", data + "/pulumi-importer/schemas/**/*.json",
                   fx + "/engine/schema.json"):
        put(b)
elif target == "stackstate":
    for b in state_docs():
        put(b)
elif target == "tfstate":
    for b in files(fx + "/convert/*.tfstate", data + "/tfstate/**/*.tfstate", data + "/tfstate/**/*.json"):
        put(b)
elif target == "mapping":
    for b in files(data + "/schemas/**/bridge-metadata*.json"):
        put(b)
elif target == "pcl":
    for b in files(fx + "/pcl/*.pp", fx + "/emit/*.pp", data + "/pcl-conformance/**/*.pp"):
        put(b)
elif target in ("pbvalue", "h2"):
    for b in state_docs():
        try:
            doc = json.loads(b)
        except ValueError:
            continue
        dep = doc.get("deployment") or doc.get("checkpoint", {}).get("latest") or {}
        for r in (dep.get("resources") or [])[:20]:
            if not isinstance(r, dict):
                continue
            msg = read_response(str(r.get("id", "")), r.get("outputs") or {}, r.get("inputs") or {})
            put(msg if target == "pbvalue" else grpc_response(msg))
    if target == "h2":
        put(grpc_response(b"", "5", "not found"))
        put(h2_frame(4, 0, 0, b"") + h2_frame(7, 0, 0, struct.pack(">II", 0, 0)))
        put(h2_frame(4, 0, 0, b"") + h2_frame(3, 0, 1, struct.pack(">I", 8)))
elif target == "lsp":
    texts = {"typescript": fx + "/lsp/index.ts", "python": fx + "/lsp/__main__.py", "go": fx + "/lsp/main.go"}
    for lang, path in texts.items():
        with open(path) as f:
            text = f.read()
        uri = "file:///tmp/fuzz/" + os.path.basename(path)
        put(lsp({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                 "params": {"capabilities": {"general": {"positionEncodings": ["utf-8", "utf-16"]}}}},
                {"jsonrpc": "2.0", "method": "initialized", "params": {}},
                {"jsonrpc": "2.0", "method": "textDocument/didOpen",
                 "params": {"textDocument": {"uri": uri, "languageId": lang, "version": 1, "text": text}}},
                {"jsonrpc": "2.0", "method": "textDocument/didChange",
                 "params": {"textDocument": {"uri": uri, "version": 2},
                            "contentChanges": [{"range": {"start": {"line": 1, "character": 0},
                                                          "end": {"line": 1, "character": 3}}, "text": "é𝄞"}]}},
                {"jsonrpc": "2.0", "id": 2, "method": "textDocument/codeAction",
                 "params": {"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0},
                                                                    "end": {"line": 0, "character": 0}},
                            "context": {"diagnostics": []}}},
                {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 2}},
                {"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
                {"jsonrpc": "2.0", "method": "exit"}))
    put(b"Content-Length: 5\r\n\r\n{}{}}")
elif target.startswith("splice_"):
    ext = {"typescript": ["ts"], "python": ["py"], "go": ["go"], "csharp": ["cs"], "java": ["java"],
           "yaml": ["yaml"]}[target[len("splice_"):]]
    for e in ext:
        for b in files(fx + "/splice/*." + e, fx + "/lsp/*." + e, fx + "/emit/**/*." + e):
            put(b)
else:
    sys.exit("seeds.py: unknown target " + target)
print("%s: %d seeds" % (target, n), file=sys.stderr)
