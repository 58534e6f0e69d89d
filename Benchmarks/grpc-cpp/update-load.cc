// The gRPC load generator of `fleetauth-bench fleet-engine`, as wrk is its REST one: location
// updates (VehicleService.UpdateVehicle, or DeliveryService.UpdateDeliveryVehicle) on gRPC's
// C++ core, from one thread driving a completion queue, so that the load costs the two cores
// as little as wrk's does. Built by build.sh.
//
//   update-load PORT PROJECT TOKENS_FILE CONNECTIONS STREAMS SECONDS RUN [vehicles|deliveryVehicles]
//
// STREAMS closed loops share CONNECTIONS HTTP/2 connections to 127.0.0.1:PORT. Loop l moves
// the vehicles bench-i with i = l mod STREAMS, one update each in turn, so no vehicle has two
// in flight; vehicle i's token is line i of TOKENS_FILE, sent as `authorization: Bearer`.
// The nth update of a vehicle in run RUN puts it at latitude 10 + RUN + n / 10^7, so the
// store's latitude tells which update it holds. After a 1 s warm-up (whose steps count on)
// it measures SECONDS and prints one JSON object: calls answered OK and otherwise, the
// measured seconds, latency percentiles, and by vehicle the highest step answered OK through
// the last step sent, and the first failure's status when a call failed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "google/maps/fleetengine/delivery/v1/delivery_api.grpc.pb.h"
#include "google/maps/fleetengine/v1/vehicle_api.grpc.pb.h"
#include "load_support.h"

namespace fe = maps::fleetengine::v1;
namespace fd = maps::fleetengine::delivery::v1;
using Clock = std::chrono::steady_clock;

namespace {

// The update of an on-demand vehicle: what differs between the two kinds of update.
struct VehicleUpdates {
    using Service = fe::VehicleService;
    using Request = fe::UpdateVehicleRequest;
    using Reply = fe::Vehicle;
    static constexpr const char* collection = "vehicles";
    static void name(Request& request, const std::string& name) { request.set_name(name); }
    static auto* location(Request& request) { return request.mutable_vehicle()->mutable_last_location(); }
    static auto call(Service::Stub* stub, grpc::ClientContext* context, const Request& request, grpc::CompletionQueue* queue) {
        return stub->PrepareAsyncUpdateVehicle(context, request, queue);
    }
};

// The update of a delivery vehicle.
struct DeliveryVehicleUpdates {
    using Service = fd::DeliveryService;
    using Request = fd::UpdateDeliveryVehicleRequest;
    using Reply = fd::DeliveryVehicle;
    static constexpr const char* collection = "deliveryVehicles";
    static void name(Request& request, const std::string& name) { request.mutable_delivery_vehicle()->set_name(name); }
    static auto* location(Request& request) { return request.mutable_delivery_vehicle()->mutable_last_location(); }
    static auto call(Service::Stub* stub, grpc::ClientContext* context, const Request& request, grpc::CompletionQueue* queue) {
        return stub->PrepareAsyncUpdateDeliveryVehicle(context, request, queue);
    }
};

struct Vehicle {
    int index;
    std::string name;
    std::string authorization;
    long sent = 0;
    long acknowledged = 0;
};

// One closed loop and its call in flight.
template <class Updates>
struct Loop {
    typename Updates::Service::Stub* stub;
    std::vector<Vehicle*> vehicles;
    size_t turn = 0;
    Vehicle* current = nullptr;
    Clock::time_point began;
    std::unique_ptr<grpc::ClientContext> context;
    std::unique_ptr<grpc::ClientAsyncResponseReader<typename Updates::Reply>> reader;
    typename Updates::Request request;
    typename Updates::Reply reply;
    grpc::Status status;
};

struct Tally {
    long succeeded = 0;
    long failed = 0;
    std::vector<long long> latencies;
    std::string firstFailure;
};

template <class Updates>
void start(Loop<Updates>& loop, grpc::CompletionQueue& queue, int run) {
    Vehicle* vehicle = loop.vehicles[loop.turn++ % loop.vehicles.size()];
    vehicle->sent += 1;
    loop.current = vehicle;
    Updates::name(loop.request, vehicle->name);
    Updates::location(loop.request)->mutable_location()->set_latitude(10.0 + run + static_cast<double>(vehicle->sent) / 1e7);
    loop.context = std::make_unique<grpc::ClientContext>();
    loop.context->AddMetadata("authorization", vehicle->authorization);
    loop.began = Clock::now();
    loop.reader = Updates::call(loop.stub, loop.context.get(), loop.request, &queue);
    loop.reader->StartCall();
    loop.reader->Finish(&loop.reply, &loop.status, &loop);
}

// Drives every loop until `deadline`, then waits for the calls in flight; counts into `tally`
// when given.
template <class Updates>
void drive(std::vector<Loop<Updates>>& loops, grpc::CompletionQueue& queue, int run, Clock::time_point deadline, Tally* tally) {
    for (Loop<Updates>& loop : loops) start(loop, queue, run);
    size_t inFlight = loops.size();
    void* tag = nullptr;
    bool ok = false;
    while (inFlight > 0 && queue.Next(&tag, &ok)) {
        Loop<Updates>& loop = *static_cast<Loop<Updates>*>(tag);
        Clock::time_point now = Clock::now();
        if (loop.status.ok()) loop.current->acknowledged = loop.current->sent;
        if (tally) {
            tally->latencies.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(now - loop.began).count());
            if (loop.status.ok()) {
                tally->succeeded += 1;
            } else {
                tally->failed += 1;
                if (tally->firstFailure.empty())
                    tally->firstFailure = std::to_string(loop.status.error_code()) + " " + loop.status.error_message();
            }
        }
        if (now < deadline) {
            start(loop, queue, run);
        } else {
            inFlight -= 1;
        }
    }
}

double percentileMilliseconds(const std::vector<long long>& sorted, double fraction) {
    if (sorted.empty()) return 0;
    return sorted[static_cast<size_t>(static_cast<double>(sorted.size() - 1) * fraction + 0.5)] / 1e6;
}

}  // namespace

// Measures `Updates` as main() describes, and prints the JSON.
template <class Updates>
int measure(const std::string& port, const std::string& project, const char* tokensFile, int connections, int streams, int seconds, int run) {
    std::vector<Vehicle> vehicles;
    std::ifstream tokens(tokensFile);
    for (std::string token; std::getline(tokens, token);) {
        int index = static_cast<int>(vehicles.size());
        vehicles.push_back({index, "providers/" + project + "/" + Updates::collection + "/bench-" + std::to_string(index), "Bearer " + token});
    }
    if (connections < 1 || streams < connections || vehicles.size() < static_cast<size_t>(streams) || seconds < 1) {
        std::fprintf(stderr, "update-load: need 1 <= CONNECTIONS <= STREAMS <= tokens and SECONDS >= 1\n");
        return 2;
    }

    const auto channels = stubs<typename Updates::Service>(port, connections);
    std::vector<Loop<Updates>> loops(streams);
    for (int l = 0; l < streams; ++l) {
        Loop<Updates>& loop = loops[l];
        loop.stub = channels[l % connections].get();
        for (size_t i = l; i < vehicles.size(); i += streams) loop.vehicles.push_back(&vehicles[i]);
        // The same update as the REST runs' body; only the name and the latitude change.
        loop.request.mutable_update_mask()->add_paths("last_location");
        auto* location = Updates::location(loop.request);
        location->mutable_location()->set_longitude(13.405);
        location->mutable_heading()->set_value(90);
        location->mutable_speed()->set_value(8.5);
        location->mutable_update_time()->set_seconds(1795278600);
    }

    grpc::CompletionQueue queue;
    drive(loops, queue, run, Clock::now() + std::chrono::seconds(1), nullptr);
    Tally tally;
    Clock::time_point began = Clock::now();
    drive(loops, queue, run, began + std::chrono::seconds(seconds), &tally);
    double elapsed = std::chrono::duration<double>(Clock::now() - began).count();
    queue.Shutdown();

    std::sort(tally.latencies.begin(), tally.latencies.end());
    std::printf("{\"succeeded\":%ld,\"failed\":%ld,\"seconds\":%.6f,", tally.succeeded, tally.failed, elapsed);
    std::printf("\"latency\":{\"count\":%zu,\"p50Milliseconds\":%.6f,\"p99Milliseconds\":%.6f,\"maxMilliseconds\":%.6f},",
                tally.latencies.size(), percentileMilliseconds(tally.latencies, 0.5),
                percentileMilliseconds(tally.latencies, 0.99), percentileMilliseconds(tally.latencies, 1));
    std::printf("\"acknowledged\":{");
    bool first = true;
    for (const Vehicle& vehicle : vehicles) {
        if (vehicle.sent == 0) continue;
        std::printf("%s\"%d\":[%ld,%ld]", first ? "" : ",", vehicle.index, vehicle.acknowledged, vehicle.sent);
        first = false;
    }
    std::printf("}");
    if (!tally.firstFailure.empty()) std::printf(",\"firstFailure\":%s", quoted(tally.firstFailure).c_str());
    std::printf("}\n");
    return 0;
}

int main(int argc, char** argv) {
    if (argc != 8 && argc != 9) {
        std::fprintf(stderr, "usage: update-load PORT PROJECT TOKENS_FILE CONNECTIONS STREAMS SECONDS RUN [vehicles|deliveryVehicles]\n");
        return 2;
    }
    const std::string collection = argc == 9 ? argv[8] : "vehicles";
    const int connections = std::atoi(argv[4]), streams = std::atoi(argv[5]), seconds = std::atoi(argv[6]), run = std::atoi(argv[7]);
    if (collection == "deliveryVehicles")
        return measure<DeliveryVehicleUpdates>(argv[1], argv[2], argv[3], connections, streams, seconds, run);
    if (collection == "vehicles") return measure<VehicleUpdates>(argv[1], argv[2], argv[3], connections, streams, seconds, run);
    std::fprintf(stderr, "update-load: the collection is vehicles or deliveryVehicles\n");
    return 2;
}
