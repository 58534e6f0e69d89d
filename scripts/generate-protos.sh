#!/usr/bin/env bash
# Regenerates Sources/FleetEngineProtos/Generated from Protos/: the Fleet Engine messages (on-demand v1 and delivery v1) and
# gRPC stubs, and gRPC health checking. The output is committed; run this after changing a
# .proto file. Needs protoc (Debian's protobuf-compiler, installed when missing); the Swift
# plugins are built from the swift-protobuf and grpc-swift-protobuf packages the project
# depends on, into the project's own .build.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v protoc >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq protobuf-compiler
fi
# protobuf-compiler brings the well-known types (Timestamp, Duration, FieldMask, ...) here.
well_known=/usr/include
[[ -f $well_known/google/protobuf/timestamp.proto ]] || { echo "no well-known .proto files in $well_known" >&2; exit 1; }

swift build --product protoc-gen-swift
swift build --product protoc-gen-grpc-swift-2
bin=$(swift build --show-bin-path)

out=Sources/FleetEngineProtos/Generated
rm -rf "$out"
mkdir -p "$out"
mapfile -t protos < <(cd Protos && find . -name '*.proto' | sed 's#^\./##' | sort)
services=(google/maps/fleetengine/v1/vehicle_api.proto google/maps/fleetengine/v1/trip_api.proto google/maps/fleetengine/delivery/v1/delivery_api.proto grpc/health/v1/health.proto)

protoc -I Protos -I "$well_known" \
    --plugin=protoc-gen-swift="$bin/protoc-gen-swift" \
    --swift_out="$out" --swift_opt=Visibility=Package,FileNaming=PathToUnderscores \
    "${protos[@]/#/Protos/}"
protoc -I Protos -I "$well_known" \
    --plugin=protoc-gen-grpc-swift="$bin/protoc-gen-grpc-swift-2" \
    --grpc-swift_out="$out" --grpc-swift_opt=Visibility=Package,FileNaming=PathToUnderscores,Server=true,Client=true \
    "${services[@]/#/Protos/}"
echo "generated $(ls "$out" | wc -l) files in $out"
