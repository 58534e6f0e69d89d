#!/usr/bin/env bash
# Builds the C++ gRPC floor server (floor.cc) into $1 (default: .build-grpc-floor/ at the
# repository root) from the project's own .proto files, and prints its path. Needs Debian's
# g++, libgrpc++-dev, protobuf-compiler and protobuf-compiler-grpc (installed when missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.build-grpc-floor}
if ! command -v g++ >/dev/null || ! command -v protoc >/dev/null || ! command -v grpc_cpp_plugin >/dev/null \
    || ! command -v pkg-config >/dev/null || ! pkg-config --exists grpc++; then
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq g++ pkg-config libgrpc++-dev protobuf-compiler protobuf-compiler-grpc >&2
fi
mkdir -p "$out/gen"
protos=(google/maps/fleetengine/v1/vehicle_api.proto google/maps/fleetengine/v1/vehicles.proto
        google/maps/fleetengine/v1/fleetengine.proto google/maps/fleetengine/v1/header.proto
        google/maps/fleetengine/v1/trips.proto google/type/latlng.proto google/geo/type/viewport.proto)
protoc -I Protos -I /usr/include --cpp_out="$out/gen" "${protos[@]/#/Protos/}"
protoc -I Protos -I /usr/include --grpc_out="$out/gen" --plugin=protoc-gen-grpc="$(command -v grpc_cpp_plugin)" \
    Protos/google/maps/fleetengine/v1/vehicle_api.proto
sources=("$out"/gen/google/maps/fleetengine/v1/*.cc "$out"/gen/google/type/*.cc "$out"/gen/google/geo/type/*.cc)
g++ -O2 -std=c++17 -I "$out/gen" Benchmarks/grpc-floor-cpp/floor.cc "${sources[@]}" \
    $(pkg-config --cflags --libs grpc++ protobuf) -o "$out/floor"
echo "$out/floor"
