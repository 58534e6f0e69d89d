#!/usr/bin/env python3
"""A backend's test against the local Fleet Engine as a test harness (/emulator/v1/), with
Google's own Fleet Engine client on the gRPC door and `requests` for the harness.

Reads {"rest": "http://127.0.0.1:PORT", "grpc": "127.0.0.1:PORT", "project": ...,
"tokens": {"server": ..., "driver": ...}} on standard input (tokens never go on the command
line; the driver token is for vehicle "py-harness"), runs the test, and prints one JSON line
{"passed": [...]} naming the steps that held. Also runs under pytest: the input then comes from
the file $EMULATOR_HARNESS_INPUT.
"""
import json
import os
import sys

import grpc
import requests
from google.api_core import exceptions
from google.maps import fleetengine_v1 as fe
from google.maps.fleetengine_v1.services.vehicle_service.transports import VehicleServiceGrpcTransport
from google.protobuf import field_mask_pb2
from google.type import latlng_pb2

VEHICLE = "py-harness"


class Engine:
    """The engine under test: Google's client for the API, plain HTTP for the harness."""

    def __init__(self, config):
        self.rest = config["rest"]
        self.parent = "providers/" + config["project"]
        self.tokens = config["tokens"]
        channel = grpc.insecure_channel(config["grpc"])
        self.vehicles = fe.VehicleServiceClient(transport=VehicleServiceGrpcTransport(channel=channel))

    def harness(self, method, path, body=None):
        answer = requests.request(method, self.rest + "/emulator/v1/" + path, json=body, timeout=10)
        assert answer.status_code == 200, (path, answer.status_code, answer.text)
        return answer.json()

    def auth(self, name):
        return [("authorization", "Bearer " + self.tokens[name])]

    def create_vehicle(self):
        vehicle = fe.Vehicle(
            vehicle_state=fe.VehicleState.ONLINE,
            supported_trip_types=[fe.TripType.EXCLUSIVE],
            maximum_capacity=4,
            vehicle_type=fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.AUTO),
        )
        request = fe.CreateVehicleRequest(parent=self.parent, vehicle_id=VEHICLE, vehicle=vehicle)
        return self.vehicles.create_vehicle(request=request, metadata=self.auth("server"))

    def move(self, latitude):
        request = fe.UpdateVehicleRequest(
            name=self.parent + "/vehicles/" + VEHICLE,
            vehicle=fe.Vehicle(last_location=fe.VehicleLocation(location=latlng_pb2.LatLng(latitude=latitude, longitude=13.4))),
            update_mask=field_mask_pb2.FieldMask(paths=["last_location"]),
        )
        # retry=None: each attempt is seen, as a backend's own retry logic would see it.
        return self.vehicles.update_vehicle(request=request, metadata=self.auth("driver"), retry=None)

    def read(self):
        request = fe.GetVehicleRequest(name=self.parent + "/vehicles/" + VEHICLE)
        return self.vehicles.get_vehicle(request=request, metadata=self.auth("server"), retry=None)


def status_of(call):
    """The gRPC status name a call ends with."""
    try:
        call()
    except exceptions.GoogleAPICallError as error:
        return error.grpc_status_code.name
    return "OK"


def test_reset_clock_faults_and_calls(config=None):
    engine = Engine(config or json.load(open(os.environ["EMULATOR_HARNESS_INPUT"])))
    passed = []

    # A clean state: nothing left of earlier tests.
    counts = engine.harness("POST", "reset", {})
    assert all(count == 0 for count in counts.values()), counts
    engine.create_vehicle()
    passed.append("reset")

    # The next two UpdateVehicle calls fail as Google's service does when it is unavailable;
    # the third goes through. The faulted calls change nothing.
    engine.harness("POST", "faults", {"method": "UpdateVehicle", "status": "UNAVAILABLE", "count": 2})
    assert [status_of(lambda: engine.move(52.5)) for _ in range(2)] == ["UNAVAILABLE", "UNAVAILABLE"]
    assert not engine.read().last_location.location.latitude, "a faulted call changed nothing"
    assert engine.move(52.6).last_location.location.latitude == 52.6
    assert engine.harness("GET", "faults")["faults"] == []
    passed.append("faults")

    # What was called, to assert on: the three UpdateVehicle calls, oldest first, each by a
    # driver token for the vehicle.
    calls = engine.harness("GET", "calls?method=UpdateVehicle&resource=" + VEHICLE)["calls"]
    assert [call["status"] for call in calls] == ["UNAVAILABLE", "UNAVAILABLE", "OK"], calls
    assert "injected fault" in calls[0]["rule"], calls
    assert all(call["role"] == "driver" and call["claims"]["vehicleid"] == VEHICLE for call in calls), calls
    # Each with the vehicle it sent, as Google's JSON, the faulted ones too (they are answered
    # by the service's method, the one that went through on the door's fast path).
    assert [call["body"]["lastLocation"]["location"]["latitude"] for call in calls] == [52.5, 52.5, 52.6], calls
    assert [call.get("injectedFault") for call in calls] == [1, 1, None], calls
    passed.append("calls")

    # The engine's clock past the tokens' hour (and the 10 s of clock skew allowed): they are
    # refused as expired, and back again.
    clock = engine.harness("POST", "clock", {"advance": "3700s"})
    assert clock["offset"] == "3700s" and not clock["frozen"], clock
    assert status_of(engine.read) == "UNAUTHENTICATED"
    engine.harness("POST", "clock", {"reset": True})
    assert status_of(engine.read) == "OK"
    passed.append("clock")

    # Only the vehicles emptied, and the engine answers as Fleet Engine does for a vehicle gone.
    engine.harness("POST", "reset", {"kinds": ["vehicles"]})
    assert status_of(engine.read) == "NOT_FOUND"
    # The indexes were emptied with the vehicles: a new one is listed alone.
    engine.create_vehicle()
    listed = engine.vehicles.list_vehicles(
        request=fe.ListVehiclesRequest(parent=engine.parent, vehicle_type_categories=[fe.Vehicle.VehicleType.Category.AUTO]),
        metadata=engine.auth("server"), retry=None)
    assert [vehicle.name.split("/")[-1] for vehicle in listed] == [VEHICLE]
    passed.append("reset kinds")
    return passed


if __name__ == "__main__":
    print(json.dumps({"passed": test_reset_clock_faults_and_calls(json.load(sys.stdin))}))
