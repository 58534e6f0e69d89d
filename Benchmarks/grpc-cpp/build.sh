#!/usr/bin/env bash
# Builds the benchmarks' C++ gRPC programs from the project's own .proto files into $1
# (default: .build-grpc-cpp/ at the repository root) and prints that folder:
#   floor        the gRPC floors' competitor (floor.cc)
#   update-load  bench fleet-engine's gRPC load generator (update-load.cc), vehicles and delivery vehicles
#   create-load  bench fleet-engine-scale's vehicle creator (create-load.cc)
# Needs Debian's g++, libgrpc++-dev, protobuf-compiler and protobuf-compiler-grpc (installed
# when missing). Rebuilds only what is older than its sources.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.build-grpc-cpp}
if ! command -v g++ >/dev/null || ! command -v protoc >/dev/null || ! command -v grpc_cpp_plugin >/dev/null \
    || ! command -v pkg-config >/dev/null || ! pkg-config --exists grpc++; then
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq g++ pkg-config libgrpc++-dev protobuf-compiler protobuf-compiler-grpc >&2
fi
mkdir -p "$out/gen"
protos=(google/maps/fleetengine/v1/vehicle_api.proto google/maps/fleetengine/v1/vehicles.proto
        google/maps/fleetengine/v1/fleetengine.proto google/maps/fleetengine/v1/header.proto
        google/maps/fleetengine/v1/trips.proto google/type/latlng.proto google/geo/type/viewport.proto)
protos+=($(cd Protos && ls google/maps/fleetengine/delivery/v1/*.proto))
flags=(-O2 -std=c++17 -I "$out/gen" $(pkg-config --cflags grpc++ protobuf))
if [[ ! -f "$out/protos.a" || -n "$(find Protos -name '*.proto' -newer "$out/protos.a")" ]]; then
    protoc -I Protos -I /usr/include --cpp_out="$out/gen" "${protos[@]/#/Protos/}"
    protoc -I Protos -I /usr/include --grpc_out="$out/gen" --plugin=protoc-gen-grpc="$(command -v grpc_cpp_plugin)" \
        Protos/google/maps/fleetengine/v1/vehicle_api.proto Protos/google/maps/fleetengine/delivery/v1/delivery_api.proto
    rm -f "$out"/gen/*.o
    for source in "$out"/gen/google/maps/fleetengine/v1/*.cc "$out"/gen/google/maps/fleetengine/delivery/v1/*.cc \
        "$out"/gen/google/type/*.cc "$out"/gen/google/geo/type/*.cc; do
        object="$out/gen/$(echo "${source#"$out"/gen/}" | tr / _).o"
        g++ "${flags[@]}" -c "$source" -o "$object" &
    done
    wait
    rm -f "$out/protos.a"
    ar rcs "$out/protos.a" "$out"/gen/*.o
fi
for program in floor update-load create-load; do
    source="Benchmarks/grpc-cpp/$program.cc"
    if [[ ! -x "$out/$program" || "$source" -nt "$out/$program" || Benchmarks/grpc-cpp/load_support.h -nt "$out/$program" || "$out/protos.a" -nt "$out/$program" ]]; then
        g++ "${flags[@]}" "$source" "$out/protos.a" $(pkg-config --libs grpc++ protobuf) -o "$out/$program"
    fi
done
echo "$out"
