#!/bin/sh
# build.sh OUT_DIR — builds the grpc-go interop peer (main.go) into OUT_DIR/pulumi-resource-<name>
# binaries from the project's own .proto files, with Debian's Go toolchain and packages only:
# golang-go, golang-google-grpc-dev, golang-google-protobuf-dev, protoc-gen-go, protoc-gen-go-grpc,
# protobuf-compiler. GOPATH mode (GO111MODULE=off) over /usr/share/gocode: nothing is downloaded.
set -eu
out=$1
here=$(cd "$(dirname "$0")" && pwd)
protos=$(cd "$here/../../../importer/proto" && pwd)
for tool in go protoc protoc-gen-go protoc-gen-go-grpc; do
  command -v "$tool" >/dev/null || { echo "build.sh: $tool is missing; run scripts/setup.sh --tests" >&2; exit 2; }
done
gopath="$out/gopath"
pkg="$gopath/src/cimport.test/pb"
rm -rf "$gopath/src"
mkdir -p "$pkg" "$gopath/src/grpcgopeer"
m="Mprovider.proto=cimport.test/pb,Mengine.proto=cimport.test/pb,Mservice.proto=cimport.test/pb"
protoc -I "$protos" -I "$here" -I /usr/include \
  --go_out="$pkg" --go_opt=paths=source_relative --go_opt="$m" \
  --go-grpc_out="$pkg" --go-grpc_opt=paths=source_relative --go-grpc_opt="$m" \
  provider.proto engine.proto service.proto
cp "$here/main.go" "$gopath/src/grpcgopeer/main.go"
export GO111MODULE=off GOPATH="$gopath:/usr/share/gocode" GOCACHE="$out/gocache" GOFLAGS= GOPROXY=off
go build -o "$out/pulumi-resource-peer" grpcgopeer
