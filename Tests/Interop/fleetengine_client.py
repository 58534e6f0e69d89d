#!/usr/bin/env python3
"""Google's own Fleet Engine client (google-maps-fleetengine) against the local Fleet Engine.

Reads {"target": "127.0.0.1:PORT", "project": ..., "tokens": {"server": ..., "driver": ...,
"consumer": ..., "other_driver": ...}} on standard input (tokens never go on the command line),
drives google.maps.fleetengine_v1 over an insecure channel with each token in the
"authorization" metadata, exactly as an operator's backend would with a changed channel only,
and prints one JSON object with what it saw: results of the calls that should succeed and the
status names of the calls that should be refused.
"""
import json
import sys

import grpc
from google.api_core import exceptions
from google.maps import fleetengine_v1 as fe
from google.maps.fleetengine_v1.services.trip_service.transports import TripServiceGrpcTransport
from google.maps.fleetengine_v1.services.vehicle_service.transports import VehicleServiceGrpcTransport
from google.protobuf import field_mask_pb2
from google.type import latlng_pb2


def main():
    config = json.load(sys.stdin)
    tokens = config["tokens"]
    parent = "providers/" + config["project"]
    channel = grpc.insecure_channel(config["target"])
    vehicles = fe.VehicleServiceClient(transport=VehicleServiceGrpcTransport(channel=channel))
    trips = fe.TripServiceClient(transport=TripServiceGrpcTransport(channel=channel))

    def auth(name):
        return [("authorization", "Bearer " + tokens[name])]

    def refusal(call):
        try:
            call()
        except exceptions.GoogleAPICallError as error:
            return error.grpc_status_code.name if error.grpc_status_code else type(error).__name__
        return "OK"

    seen = {}
    vehicle = fe.Vehicle(
        vehicle_state=fe.VehicleState.ONLINE,
        supported_trip_types=[fe.TripType.EXCLUSIVE],
        maximum_capacity=4,
        vehicle_type=fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.AUTO),
        last_location=fe.VehicleLocation(location=latlng_pb2.LatLng(latitude=35.68, longitude=139.76)),
    )
    created = vehicles.create_vehicle(
        request=fe.CreateVehicleRequest(parent=parent, vehicle_id="py-vehicle", vehicle=vehicle), metadata=auth("server"))
    seen["created_vehicle"] = {"name": created.name, "state": created.vehicle_state.name}

    read = vehicles.get_vehicle(request=fe.GetVehicleRequest(name=parent + "/vehicles/py-vehicle"), metadata=auth("driver"))
    seen["read_vehicle"] = {"capacity": read.maximum_capacity, "category": read.vehicle_type.category.name}

    moved = vehicles.update_vehicle(
        request=fe.UpdateVehicleRequest(
            name=parent + "/vehicles/py-vehicle",
            vehicle=fe.Vehicle(last_location=fe.VehicleLocation(location=latlng_pb2.LatLng(latitude=35.69, longitude=139.77))),
            update_mask=field_mask_pb2.FieldMask(paths=["last_location"]),
        ),
        metadata=auth("driver"),
    )
    seen["moved_vehicle"] = {"latitude": moved.last_location.location.latitude}

    found = vehicles.search_vehicles(
        request=fe.SearchVehiclesRequest(
            parent=parent,
            pickup_point=fe.TerminalLocation(point=latlng_pb2.LatLng(latitude=35.69, longitude=139.77)),
            pickup_radius_meters=1000,
            count=10,
            minimum_capacity=1,
            trip_types=[fe.TripType.EXCLUSIVE],
            vehicle_types=[fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.AUTO)],
            order_by=fe.SearchVehiclesRequest.VehicleMatchOrder.PICKUP_POINT_STRAIGHT_DISTANCE,
        ),
        metadata=auth("server"),
    )
    seen["search"] = [match.vehicle.name for match in found.matches]

    for index in range(3):
        vehicles.create_vehicle(
            request=fe.CreateVehicleRequest(
                parent=parent,
                vehicle_id="py-listed-%d" % index,
                vehicle=fe.Vehicle(
                    vehicle_state=fe.VehicleState.OFFLINE,
                    supported_trip_types=[fe.TripType.SHARED],
                    maximum_capacity=2,
                    vehicle_type=fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.TWO_WHEELER),
                ),
            ),
            metadata=auth("server"),
        )
    # The client's pager follows next_page_token across pages of one.
    listed = vehicles.list_vehicles(
        request=fe.ListVehiclesRequest(
            parent=parent, page_size=1, vehicle_type_categories=[fe.Vehicle.VehicleType.Category.TWO_WHEELER]),
        metadata=auth("server"),
    )
    seen["listed"] = [listed_vehicle.name for listed_vehicle in listed]

    trip = trips.create_trip(
        request=fe.CreateTripRequest(
            parent=parent,
            trip_id="py-trip",
            trip=fe.Trip(
                vehicle_id="py-vehicle",
                trip_type=fe.TripType.EXCLUSIVE,
                pickup_point=fe.TerminalLocation(point=latlng_pb2.LatLng(latitude=35.69, longitude=139.77)),
            ),
        ),
        metadata=auth("server"),
    )
    seen["created_trip"] = {"name": trip.name, "status": trip.trip_status.name}

    read_trip = trips.get_trip(request=fe.GetTripRequest(name=parent + "/trips/py-trip"), metadata=auth("consumer"))
    seen["read_trip"] = {"vehicle": read_trip.vehicle_id}

    started = trips.update_trip(
        request=fe.UpdateTripRequest(
            name=parent + "/trips/py-trip",
            trip=fe.Trip(trip_status=fe.TripStatus.ENROUTE_TO_PICKUP),
            update_mask=field_mask_pb2.FieldMask(paths=["trip_status"]),
        ),
        metadata=auth("driver"),
    )
    seen["started_trip"] = {"status": started.trip_status.name}

    found_trips = trips.search_trips(
        request=fe.SearchTripsRequest(parent=parent, vehicle_id="py-vehicle", active_trips_only=True), metadata=auth("driver"))
    seen["searched_trips"] = [found_trip.name for found_trip in found_trips]

    vehicle_name = parent + "/vehicles/py-vehicle"
    seen["delete_busy_vehicle"] = refusal(lambda: vehicles.delete_vehicle(name=vehicle_name, metadata=auth("server")))
    trips.update_trip(
        request=fe.UpdateTripRequest(
            name=parent + "/trips/py-trip",
            trip=fe.Trip(trip_status=fe.TripStatus.COMPLETE),
            update_mask=field_mask_pb2.FieldMask(paths=["trip_status"]),
        ),
        metadata=auth("server"),
    )
    trips.delete_trip(name=parent + "/trips/py-trip", metadata=auth("server"))
    vehicles.delete_vehicle(name=vehicle_name, metadata=auth("server"))
    seen["deleted"] = {
        "vehicle": refusal(lambda: vehicles.get_vehicle(request=fe.GetVehicleRequest(name=vehicle_name), metadata=auth("server"))),
        "trip": refusal(lambda: trips.get_trip(request=fe.GetTripRequest(name=parent + "/trips/py-trip"), metadata=auth("server"))),
    }

    seen["refusals"] = {
        "no_token": refusal(lambda: vehicles.get_vehicle(request=fe.GetVehicleRequest(name=parent + "/vehicles/py-vehicle"))),
        "driver_creates_vehicle": refusal(lambda: vehicles.create_vehicle(
            request=fe.CreateVehicleRequest(parent=parent, vehicle_id="py-refused", vehicle=vehicle), metadata=auth("driver"))),
        "other_driver_reads_vehicle": refusal(lambda: vehicles.get_vehicle(
            request=fe.GetVehicleRequest(name=parent + "/vehicles/py-vehicle"), metadata=auth("other_driver"))),
        "missing_vehicle": refusal(lambda: vehicles.get_vehicle(
            request=fe.GetVehicleRequest(name=parent + "/vehicles/py-missing"), metadata=auth("server"))),
        "vehicle_exists": refusal(lambda: vehicles.create_vehicle(
            request=fe.CreateVehicleRequest(parent=parent, vehicle_id="py-listed-0", vehicle=vehicle), metadata=auth("server"))),
        "list_without_categories": refusal(lambda: list(vehicles.list_vehicles(
            request=fe.ListVehiclesRequest(parent=parent), metadata=auth("server")))),
        "driver_lists_vehicles": refusal(lambda: list(vehicles.list_vehicles(
            request=fe.ListVehiclesRequest(parent=parent, vehicle_type_categories=[fe.Vehicle.VehicleType.Category.AUTO]),
            metadata=auth("driver")))),
        "no_update_mask": refusal(lambda: vehicles.update_vehicle(
            request=fe.UpdateVehicleRequest(name=parent + "/vehicles/py-vehicle", vehicle=vehicle), metadata=auth("server"))),
    }
    print(json.dumps(seen, sort_keys=True))


if __name__ == "__main__":
    main()
