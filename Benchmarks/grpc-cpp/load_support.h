// What the benchmarks' C++ gRPC load programs share: their connections to the engine, and
// the JSON they print.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "google/maps/fleetengine/v1/vehicle_api.grpc.pb.h"

// `connections` stubs of `Service` to 127.0.0.1:`port`, each on an HTTP/2 connection of its
// own (channels with the same target share one connection unless each keeps its own pool).
template <class Service>
std::vector<std::unique_ptr<typename Service::Stub>> stubs(const std::string& port, int connections) {
    std::vector<std::unique_ptr<typename Service::Stub>> stubs;
    for (int c = 0; c < connections; ++c) {
        grpc::ChannelArguments arguments;
        arguments.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
        stubs.push_back(Service::NewStub(grpc::CreateCustomChannel("127.0.0.1:" + port, grpc::InsecureChannelCredentials(), arguments)));
    }
    return stubs;
}

// `connections` VehicleService stubs (see stubs()).
inline std::vector<std::unique_ptr<maps::fleetengine::v1::VehicleService::Stub>> vehicleStubs(const std::string& port, int connections) {
    return stubs<maps::fleetengine::v1::VehicleService>(port, connections);
}

// `text` as a JSON string.
inline std::string quoted(const std::string& text) {
    std::string json = "\"";
    for (unsigned char c : text) {
        if (c == '"' || c == '\\') {
            json += '\\';
            json += static_cast<char>(c);
        } else if (c < 0x20) {
            char escape[8];
            std::snprintf(escape, sizeof escape, "\\u%04x", c);
            json += escape;
        } else {
            json += static_cast<char>(c);
        }
    }
    return json + "\"";
}
