// The smallest gRPC competitor for `fleetauth-bench fleet-engine`: VehicleService on gRPC's
// C++ core with nothing behind it, as GRPCFloorService is on grpc-swift. UpdateVehicle answers
// with the request's vehicle, named as the request names it; no token, rules or store. Every
// other method is UNIMPLEMENTED (the generated base class). Built by build.sh.
//
//   floor PORT   serves plaintext HTTP/2 on 127.0.0.1:PORT (0: a free one; the port is printed
//                as "port N"), with gRPC's own choice of threads.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include <grpcpp/grpcpp.h>

#include "google/maps/fleetengine/v1/vehicle_api.grpc.pb.h"

namespace fe = maps::fleetengine::v1;

class FloorVehicleService final : public fe::VehicleService::CallbackService {
    grpc::ServerUnaryReactor* UpdateVehicle(
        grpc::CallbackServerContext* context, const fe::UpdateVehicleRequest* request, fe::Vehicle* reply) override {
        *reply = request->vehicle();
        reply->set_name(request->name());
        auto* reactor = context->DefaultReactor();
        reactor->Finish(grpc::Status::OK);
        return reactor;
    }
};

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: floor PORT\n");
        return 2;
    }
    int port = std::atoi(argv[1]);
    FloorVehicleService service;
    grpc::ServerBuilder builder;
    int chosen = 0;
    builder.AddListeningPort("127.0.0.1:" + std::to_string(port), grpc::InsecureServerCredentials(), &chosen);
    builder.RegisterService(&service);
    std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
    if (!server) {
        std::fprintf(stderr, "cannot listen on 127.0.0.1:%d\n", port);
        return 1;
    }
    std::printf("port %d\n", chosen);
    std::fflush(stdout);
    server->Wait();
    return 0;
}
