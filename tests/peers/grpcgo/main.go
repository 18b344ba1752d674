// main.go — the grpc-go interop peer: a small Pulumi resource provider on grpc-go, the gRPC server
// real Pulumi providers are built on, so cimport's nghttp2 client is tested against it as well as
// against the Node.js host. It answers Read/Check/Diff from a JSON file named by CIMPORT_PEER_DATA:
//
//   {"version": "4.21.1", "schemaFile": "/path/schema.json",
//    "resources": {"<type token>": {"<import ID>": {"id": "...", "inputs": {...}, "state": {...},
//                                                   "log": "optional message sent to the engine on Read"}}}}
//
// Read returns the recorded inputs and state (values may hold Pulumi's signature objects, e.g.
// secrets; they pass through as they are); Check returns the new inputs unchanged; Diff reports each
// property whose new value differs from the old state, by top-level key and detailed path.
//
// Like Pulumi's Go provider SDK, with the engine address as its argument it health-checks the engine
// (grpc.health.v1.Health/Check) at start and then every CIMPORT_PEER_HEALTH_MS milliseconds (default
// 5 minutes) and exits when the answer is an error other than UNIMPLEMENTED; each passed check is
// reported to the engine as a DEBUG Log message "health check N passed".
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	pb "cimport.test/pb"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

type record struct {
	ID     string                 `json:"id"`
	Inputs map[string]interface{} `json:"inputs"`
	State  map[string]interface{} `json:"state"`
	Log    string                 `json:"log"`
}

type peerData struct {
	Version    string                       `json:"version"`
	SchemaFile string                       `json:"schemaFile"`
	Resources  map[string]map[string]record `json:"resources"`
}

type provider struct {
	pb.UnimplementedResourceProviderServer
	data   peerData
	mu     sync.Mutex
	engine *grpc.ClientConn
}

func (p *provider) engineLog(sev pb.LogSeverity, msg, urn string) {
	p.mu.Lock()
	conn := p.engine
	p.mu.Unlock()
	if conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := pb.NewEngineClient(conn).Log(ctx, &pb.LogRequest{Severity: sev, Message: msg, Urn: urn}); err != nil {
		fmt.Fprintf(os.Stderr, "grpcgo peer: Log failed: %v\n", err)
	}
}

func (p *provider) connectEngine(addr string) error {
	conn, err := grpc.Dial(addr, grpc.WithInsecure())
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.engine = conn
	p.mu.Unlock()
	return nil
}

// healthcheck mirrors rpcutil.Healthcheck of Pulumi's Go SDK: any error but UNIMPLEMENTED ends the
// provider.
func (p *provider) healthcheck(interval time.Duration) {
	for n := 1; ; n++ {
		p.mu.Lock()
		conn := p.engine
		p.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
		cancel()
		if err != nil && status.Code(err) != codes.Unimplemented {
			fmt.Fprintf(os.Stderr, "grpcgo peer: engine health check failed, shutting down: %v\n", err)
			os.Exit(1)
		}
		p.engineLog(pb.LogSeverity_DEBUG, fmt.Sprintf("health check %d passed", n), "")
		time.Sleep(interval)
	}
}

func typeOf(urn string) string {
	parts := strings.Split(urn, "::")
	if len(parts) < 4 {
		return ""
	}
	qualified := parts[2]
	return qualified[strings.LastIndex(qualified, "$")+1:]
}

func (p *provider) Handshake(ctx context.Context, req *pb.ProviderHandshakeRequest) (*pb.ProviderHandshakeResponse, error) {
	if req.EngineAddress != "" {
		if err := p.connectEngine(req.EngineAddress); err != nil {
			return nil, err
		}
	}
	return &pb.ProviderHandshakeResponse{AcceptSecrets: true, AcceptResources: true}, nil
}

func (p *provider) GetPluginInfo(ctx context.Context, _ *emptypb.Empty) (*pb.PluginInfo, error) {
	return &pb.PluginInfo{Version: p.data.Version}, nil
}

func (p *provider) GetSchema(ctx context.Context, req *pb.GetSchemaRequest) (*pb.GetSchemaResponse, error) {
	text, err := os.ReadFile(p.data.SchemaFile)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "reading the schema: %v", err)
	}
	return &pb.GetSchemaResponse{Schema: string(text)}, nil
}

func (p *provider) CheckConfig(ctx context.Context, req *pb.CheckRequest) (*pb.CheckResponse, error) {
	return &pb.CheckResponse{Inputs: req.News}, nil
}

func (p *provider) Configure(ctx context.Context, req *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	return &pb.ConfigureResponse{AcceptSecrets: true, AcceptResources: true}, nil
}

func (p *provider) Read(ctx context.Context, req *pb.ReadRequest) (*pb.ReadResponse, error) {
	rec, ok := p.data.Resources[typeOf(req.Urn)][req.Id]
	if !ok {
		return &pb.ReadResponse{Id: req.Id}, nil // no properties: the resource does not exist
	}
	if rec.Log != "" {
		p.engineLog(pb.LogSeverity_INFO, rec.Log, req.Urn)
	}
	inputs, err := structpb.NewStruct(rec.Inputs)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "inputs of %s: %v", req.Id, err)
	}
	state, err := structpb.NewStruct(rec.State)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "state of %s: %v", req.Id, err)
	}
	id := rec.ID
	if id == "" {
		id = req.Id
	}
	return &pb.ReadResponse{Id: id, Properties: state, Inputs: inputs}, nil
}

func (p *provider) Check(ctx context.Context, req *pb.CheckRequest) (*pb.CheckResponse, error) {
	return &pb.CheckResponse{Inputs: req.News}, nil
}

func (p *provider) Diff(ctx context.Context, req *pb.DiffRequest) (*pb.DiffResponse, error) {
	olds, news := req.Olds.GetFields(), req.News.GetFields()
	keys := map[string]bool{}
	for k := range news {
		keys[k] = true
	}
	if rec, ok := p.data.Resources[typeOf(req.Urn)][req.Id]; ok {
		for k := range rec.Inputs {
			keys[k] = true
		}
	}
	resp := &pb.DiffResponse{Changes: pb.DiffResponse_DIFF_NONE, HasDetailedDiff: true,
		DetailedDiff: map[string]*pb.PropertyDiff{}}
	var diffs []string
	for k := range keys {
		o, n := olds[k], news[k]
		switch {
		case o == nil && n == nil:
			continue
		case o == nil:
			resp.DetailedDiff[k] = &pb.PropertyDiff{Kind: pb.PropertyDiff_ADD}
		case n == nil:
			resp.DetailedDiff[k] = &pb.PropertyDiff{Kind: pb.PropertyDiff_DELETE}
		case !proto.Equal(o, n):
			resp.DetailedDiff[k] = &pb.PropertyDiff{Kind: pb.PropertyDiff_UPDATE}
		default:
			continue
		}
		diffs = append(diffs, k)
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		resp.Changes = pb.DiffResponse_DIFF_SOME
		resp.Diffs = diffs
	}
	return resp, nil
}

func (p *provider) Cancel(ctx context.Context, _ *emptypb.Empty) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

func (p *provider) Attach(ctx context.Context, req *pb.PluginAttach) (*emptypb.Empty, error) {
	if err := p.connectEngine(req.Address); err != nil {
		return nil, err
	}
	return &emptypb.Empty{}, nil
}

func main() {
	p := &provider{}
	text, err := os.ReadFile(os.Getenv("CIMPORT_PEER_DATA"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "grpcgo peer: set CIMPORT_PEER_DATA to the data file: %v\n", err)
		os.Exit(2)
	}
	if err := json.Unmarshal(text, &p.data); err != nil {
		fmt.Fprintf(os.Stderr, "grpcgo peer: %s: %v\n", os.Getenv("CIMPORT_PEER_DATA"), err)
		os.Exit(2)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintf(os.Stderr, "grpcgo peer: %v\n", err)
		os.Exit(1)
	}
	if len(os.Args) > 1 {
		if err := p.connectEngine(os.Args[1]); err != nil {
			fmt.Fprintf(os.Stderr, "grpcgo peer: %v\n", err)
			os.Exit(1)
		}
		interval := 5 * time.Minute
		if ms, err := strconv.Atoi(os.Getenv("CIMPORT_PEER_HEALTH_MS")); err == nil && ms > 0 {
			interval = time.Duration(ms) * time.Millisecond
		}
		go p.healthcheck(interval)
	}
	srv := grpc.NewServer(grpc.MaxRecvMsgSize(400<<20), grpc.MaxSendMsgSize(400<<20))
	pb.RegisterResourceProviderServer(srv, p)
	fmt.Printf("%d\n", lis.Addr().(*net.TCPAddr).Port)
	if err := srv.Serve(lis); err != nil {
		fmt.Fprintf(os.Stderr, "grpcgo peer: %v\n", err)
		os.Exit(1)
	}
}
