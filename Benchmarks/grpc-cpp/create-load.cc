// The vehicle creator of `fleetauth-bench fleet-engine-scale`: CreateVehicle calls on gRPC's
// C++ core from one thread driving a completion queue, so that the client costs the two cores
// little, as a dispatch backend's own load test would create its fleet. Built by build.sh.
//
//   create-load PORT PROJECT TOKEN_FILE COUNT CONNECTIONS STREAMS LATITUDE LONGITUDE
//
// STREAMS closed loops share CONNECTIONS HTTP/2 connections to 127.0.0.1:PORT and create the
// vehicles created-0 … created-(COUNT-1) at LATITUDE, LONGITUDE, each call authorized by
// `Bearer` and the first line of TOKEN_FILE. Prints one JSON object: calls answered OK and otherwise, the seconds from the
// first call to the last answer, and the first failure's status when a call failed.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "google/maps/fleetengine/v1/vehicle_api.grpc.pb.h"
#include "load_support.h"

namespace fe = maps::fleetengine::v1;

namespace {

// One closed loop and its call in flight.
struct Loop {
    fe::VehicleService::Stub* stub;
    std::unique_ptr<grpc::ClientContext> context;
    std::unique_ptr<grpc::ClientAsyncResponseReader<fe::Vehicle>> reader;
    fe::CreateVehicleRequest request;
    fe::Vehicle reply;
    grpc::Status status;
};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 9) {
        std::fprintf(stderr, "usage: create-load PORT PROJECT TOKEN_FILE COUNT CONNECTIONS STREAMS LATITUDE LONGITUDE\n");
        return 2;
    }
    const std::string port = argv[1], project = argv[2];
    std::string token;
    std::ifstream tokenFile(argv[3]);
    std::getline(tokenFile, token);
    const std::string authorization = "Bearer " + token;
    const long count = std::atol(argv[4]);
    const int connections = std::atoi(argv[5]), streams = std::atoi(argv[6]);
    if (token.empty() || count < 1 || connections < 1 || streams < connections) {
        std::fprintf(stderr, "create-load: need a token in TOKEN_FILE, COUNT >= 1 and 1 <= CONNECTIONS <= STREAMS\n");
        return 2;
    }
    const auto stubs = vehicleStubs(port, connections);
    std::vector<Loop> loops(streams);
    for (int l = 0; l < streams; ++l) {
        Loop& loop = loops[l];
        loop.stub = stubs[l % connections].get();
        loop.request.set_parent("providers/" + project);
        fe::Vehicle* vehicle = loop.request.mutable_vehicle();
        vehicle->set_vehicle_state(fe::ONLINE);
        vehicle->add_supported_trip_types(fe::EXCLUSIVE);
        vehicle->set_maximum_capacity(4);
        vehicle->mutable_vehicle_type()->set_category(fe::Vehicle::VehicleType::AUTO);
        vehicle->mutable_last_location()->mutable_location()->set_latitude(std::atof(argv[7]));
        vehicle->mutable_last_location()->mutable_location()->set_longitude(std::atof(argv[8]));
    }

    grpc::CompletionQueue queue;
    long next = 0, succeeded = 0, failed = 0, inFlight = 0;
    std::string firstFailure;
    auto start = [&](Loop& loop) {
        loop.request.set_vehicle_id("created-" + std::to_string(next++));
        loop.context = std::make_unique<grpc::ClientContext>();
        loop.context->AddMetadata("authorization", authorization);
        loop.reader = loop.stub->PrepareAsyncCreateVehicle(loop.context.get(), loop.request, &queue);
        loop.reader->StartCall();
        loop.reader->Finish(&loop.reply, &loop.status, &loop);
        inFlight += 1;
    };
    auto began = std::chrono::steady_clock::now();
    for (Loop& loop : loops) {
        if (next < count) start(loop);
    }
    void* tag = nullptr;
    bool ok = false;
    while (inFlight > 0 && queue.Next(&tag, &ok)) {
        Loop& loop = *static_cast<Loop*>(tag);
        inFlight -= 1;
        if (loop.status.ok()) {
            succeeded += 1;
        } else {
            failed += 1;
            if (firstFailure.empty()) firstFailure = std::to_string(loop.status.error_code()) + " " + loop.status.error_message();
        }
        if (next < count) start(loop);
    }
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    queue.Shutdown();
    std::printf("{\"succeeded\":%ld,\"failed\":%ld,\"seconds\":%.6f", succeeded, failed, elapsed);
    if (!firstFailure.empty()) std::printf(",\"firstFailure\":%s", quoted(firstFailure).c_str());
    std::printf("}\n");
    return 0;
}
