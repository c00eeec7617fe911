"""Abandoned large calls through grpcio (Python's gRPC core).

Six Solve calls of a 10^6-vertex, 3*10^6-edge graph on one channel, each
with a 1.5 s deadline, then a 3-vertex Solve on the same channel, which
must be answered. Run by tests/api/grpcio.rs:

    python3 abandon_large_calls.py ADDRESS PROTO_DIR

Exits 0 when the small call is answered; otherwise prints why and exits 1.
"""

import concurrent.futures
import os
import sys
import tempfile

import grpc
import grpc_tools
from grpc_tools import protoc


def stubs(proto_dir, out):
    well_known = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
    files = [
        os.path.join("puzzled", "v1", name)
        for name in sorted(os.listdir(os.path.join(proto_dir, "puzzled", "v1")))
        if name.endswith(".proto")
    ]
    code = protoc.main(
        ["protoc", f"-I{proto_dir}", f"-I{well_known}", f"--python_out={out}", f"--grpc_python_out={out}"]
        + files
    )
    if code != 0:
        sys.exit(f"protoc failed ({code})")
    sys.path.insert(0, out)
    from puzzled.v1 import puzzle_pb2, puzzle_service_pb2, puzzle_service_pb2_grpc

    return puzzle_pb2, puzzle_service_pb2, puzzle_service_pb2_grpc


def main():
    address, proto_dir = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as out:
        puzzle, service, service_grpc = stubs(proto_dir, out)
        n = 1_000_000
        # A circulant graph: each vertex joined to the next three.
        edges = [w for v in range(n) for d in (1, 2, 3) for w in (v, (v + d) % n)]
        large = service.SolveRequest(
            spec=puzzle.PuzzleSpec(
                game=puzzle.GAME_GEOGRAPHY,
                graph=puzzle.Graph(vertex_count=n, edges=edges),
            )
        ).SerializeToString()
        limit = 1 << 28
        options = [
            ("grpc.max_send_message_length", limit),
            ("grpc.max_receive_message_length", limit),
        ]
        with grpc.insecure_channel(address, options=options) as channel:
            grpc.channel_ready_future(channel).result(timeout=30)
            # The bytes as they are, so that the client's own encoding is
            # not what the deadlines catch.
            solve_bytes = channel.unary_unary(
                "/puzzled.v1.PuzzleService/Solve",
                request_serializer=None,
                response_deserializer=puzzle.Solution.FromString,
            )
            with concurrent.futures.ThreadPoolExecutor(6) as pool:
                calls = [pool.submit(solve_bytes, large, timeout=1.5) for _ in range(6)]
                for call in calls:
                    try:
                        call.result()
                    except grpc.RpcError as error:
                        if error.code() == grpc.StatusCode.UNAVAILABLE:
                            sys.exit(f"a large call lost its connection: {error.details()}")
            stub = service_grpc.PuzzleServiceStub(channel)
            small = service.SolveRequest(
                spec=puzzle.PuzzleSpec(
                    game=puzzle.GAME_GEOGRAPHY,
                    graph=puzzle.Graph(vertex_count=3, edges=[0, 1, 1, 2]),
                )
            )
            try:
                solution = stub.Solve(small, timeout=30)
            except grpc.RpcError as error:
                sys.exit(f"the small call failed: {error.code()} {error.details()}")
            if not solution.canonical_hash:
                sys.exit("the small call's solution has no canonical hash")
    print("ok")


if __name__ == "__main__":
    main()
