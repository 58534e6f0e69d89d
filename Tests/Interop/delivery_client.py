#!/usr/bin/env python3
"""Google's own delivery client (google-maps-fleetengine-delivery) against the local Fleet Engine.

Reads {"grpc": "127.0.0.1:PORT", "rest": "127.0.0.1:PORT", "project": ..., "tokens": {"grpc":
{...}, "rest": {...}}} on standard input (tokens never go on the command line); each transport's
resources are named after it ("grpc-dv", "rest-ship"), and so are its tokens' claims. Drives google.maps.fleetengine_delivery_v1
twice, once over gRPC on an insecure channel and once over REST with url_scheme="http", each
token in the "authorization" metadata, as a delivery backend and its apps would with a changed
endpoint only. Prints one JSON object: per transport, what the calls that should succeed
returned and the status names of the calls that should be refused.
"""
import json
import sys

import grpc
from google.api_core import exceptions
from google.auth import credentials
from google.maps import fleetengine_delivery_v1 as fe
from google.maps.fleetengine_delivery_v1.services.delivery_service.transports import (
    DeliveryServiceGrpcTransport,
    DeliveryServiceRestTransport,
)
from google.protobuf import duration_pb2, field_mask_pb2, timestamp_pb2
from google.type import latlng_pb2


def point(latitude, longitude):
    return latlng_pb2.LatLng(latitude=latitude, longitude=longitude)


class MetadataTokenOnly(credentials.Credentials):
    """Adds nothing to a request: each call carries its own token in its metadata, as on gRPC.
    (Google's AnonymousCredentials refuse the refresh that its REST session tries on a 401.)"""

    def refresh(self, request):
        self.token = None

    def apply(self, headers, token=None):
        pass


def client_for(transport, config):
    if transport == "grpc":
        return fe.DeliveryServiceClient(transport=DeliveryServiceGrpcTransport(channel=grpc.insecure_channel(config["grpc"])))
    return fe.DeliveryServiceClient(
        transport=DeliveryServiceRestTransport(host=config["rest"], credentials=MetadataTokenOnly(), url_scheme="http"))


def drive(client, prefix, config):
    tokens = config["tokens"][prefix]
    parent = "providers/" + config["project"]
    vehicle_name = f"{parent}/deliveryVehicles/{prefix}-dv"

    def auth(name):
        return [("authorization", "Bearer " + tokens[name])]

    def status(call):
        try:
            call()
        except exceptions.GoogleAPICallError as error:
            # Over REST the client raises by HTTP code (BadRequest covers three statuses); the
            # status itself is in the body's error.status, as Google's REST errors carry it.
            body = getattr(error.response, "json", None)
            if callable(body):
                return body()["error"]["status"]
            return error.grpc_status_code.name if error.grpc_status_code else type(error).__name__
        return "OK"

    def task(kind, tracking, latitude):
        return fe.Task(
            type_=kind, state=fe.Task.State.OPEN, tracking_id=tracking,
            planned_location=fe.LocationInfo(point=point(latitude, 139.70)),
            task_duration=duration_pb2.Duration(seconds=120))

    def stop(state, latitude, *task_ids):
        return fe.VehicleJourneySegment(stop=fe.VehicleStop(
            state=state, planned_location=fe.LocationInfo(point=point(latitude, 139.70)),
            tasks=[fe.VehicleStop.TaskInfo(task_id=task_id) for task_id in task_ids]))

    def set_stops(token, *segments, name=vehicle_name):
        return client.update_delivery_vehicle(
            request=fe.UpdateDeliveryVehicleRequest(
                delivery_vehicle=fe.DeliveryVehicle(name=name, remaining_vehicle_journey_segments=list(segments)),
                update_mask=field_mask_pb2.FieldMask(paths=["remaining_vehicle_journey_segments"])),
            metadata=auth(token))

    seen = {}
    created = client.create_delivery_vehicle(
        request=fe.CreateDeliveryVehicleRequest(
            parent=parent, delivery_vehicle_id=f"{prefix}-dv",
            delivery_vehicle=fe.DeliveryVehicle(last_location=fe.DeliveryVehicleLocation(location=point(35.60, 139.70)))),
        metadata=auth("server"))
    seen["created_vehicle"] = {"name": created.name, "type": created.type_.name}

    batch = client.batch_create_tasks(
        request=fe.BatchCreateTasksRequest(parent=parent, requests=[
            fe.CreateTaskRequest(task_id=f"{prefix}-pickup", task=task(fe.Task.Type.PICKUP, f"{prefix}-ship", 35.61)),
            fe.CreateTaskRequest(task_id=f"{prefix}-delivery", task=task(fe.Task.Type.DELIVERY, f"{prefix}-ship", 35.62)),
        ]),
        metadata=auth("server"))
    seen["batch"] = [t.name for t in batch.tasks]
    lone = client.create_task(
        request=fe.CreateTaskRequest(
            parent=parent, task_id=f"{prefix}-lone", task=task(fe.Task.Type.DELIVERY, f"{prefix}-lone-ship", 35.63)),
        metadata=auth("server"))
    seen["created_task"] = {"name": lone.name, "state": lone.state.name}

    planned = set_stops("server", stop(fe.VehicleStop.State.ENROUTE, 35.61, f"{prefix}-pickup"),
                        stop(fe.VehicleStop.State.NEW, 35.62, f"{prefix}-delivery"))
    seen["stops"] = [[t.task_id for t in s.stop.tasks] for s in planned.remaining_vehicle_journey_segments]
    seen["stop_task_duration"] = int(planned.remaining_vehicle_journey_segments[0].stop.tasks[0].task_duration.total_seconds())
    seen["assigned_to"] = client.get_task(
        request=fe.GetTaskRequest(name=f"{parent}/tasks/{prefix}-delivery"), metadata=auth("server")).delivery_vehicle_id

    moved = client.update_delivery_vehicle(
        request=fe.UpdateDeliveryVehicleRequest(
            delivery_vehicle=fe.DeliveryVehicle(
                name=vehicle_name, last_location=fe.DeliveryVehicleLocation(location=point(35.605, 139.70))),
            update_mask=field_mask_pb2.FieldMask(paths=["last_location"])),
        metadata=auth("untrusted_driver"))
    seen["moved"] = {"latitude": moved.last_location.location.latitude, "stamped": moved.last_location.server_time.timestamp() > 0}
    seen["driver_reads_vehicle"] = client.get_delivery_vehicle(
        request=fe.GetDeliveryVehicleRequest(name=vehicle_name), metadata=auth("untrusted_driver")).name

    tracking = client.get_task_tracking_info(
        request=fe.GetTaskTrackingInfoRequest(name=f"{parent}/taskTrackingInfo/{prefix}-ship"), metadata=auth("consumer"))
    seen["tracking"] = {
        "state": tracking.state.name, "stops": tracking.remaining_stop_count, "vehicle": tracking.vehicle_location.location.latitude,
        "has_eta": tracking.estimated_arrival_time.timestamp() > 0,
    }

    arrived = set_stops("trusted_driver", stop(fe.VehicleStop.State.ARRIVED, 35.61, f"{prefix}-pickup"),
                        stop(fe.VehicleStop.State.NEW, 35.62, f"{prefix}-delivery"))
    seen["arrived"] = arrived.remaining_vehicle_journey_segments[0].stop.state.name
    set_stops("trusted_driver", stop(fe.VehicleStop.State.ENROUTE, 35.62, f"{prefix}-delivery"))
    closed = client.get_task(request=fe.GetTaskRequest(name=f"{parent}/tasks/{prefix}-pickup"), metadata=auth("server"))
    seen["pickup_after_stop"] = closed.state.name

    outcome = client.update_task(
        request=fe.UpdateTaskRequest(
            task=fe.Task(name=f"{parent}/tasks/{prefix}-pickup", task_outcome=fe.Task.TaskOutcome.SUCCEEDED,
                         task_outcome_time=timestamp_pb2.Timestamp(seconds=1_800_000_000)),
            update_mask=field_mask_pb2.FieldMask(paths=["task_outcome", "task_outcome_time"])),
        metadata=auth("server"))
    seen["outcome"] = {
        "outcome": outcome.task_outcome.name, "source": outcome.task_outcome_location_source.name,
        "latitude": outcome.task_outcome_location.point.latitude,
    }

    listed = client.list_tasks(
        request=fe.ListTasksRequest(parent=parent, filter=f'delivery_vehicle_id = "{prefix}-dv" AND state = OPEN'),
        metadata=auth("fleet_reader"))
    seen["open_tasks_of_vehicle"] = [t.name for t in listed]
    shipment = client.list_tasks(
        request=fe.ListTasksRequest(parent=parent, filter=f"tracking_id = {prefix}-ship", page_size=1), metadata=auth("fleet_reader"))
    seen["shipment_tasks"] = [t.name for t in shipment]
    vehicles = client.list_delivery_vehicles(
        request=fe.ListDeliveryVehiclesRequest(parent=parent, page_size=100), metadata=auth("fleet_reader"))
    seen["listed_vehicle_has_no_stops"] = [
        len(v.remaining_vehicle_journey_segments) for v in vehicles if v.name == vehicle_name]

    other = client.create_delivery_vehicle(
        request=fe.CreateDeliveryVehicleRequest(parent=parent, delivery_vehicle_id=f"{prefix}-other", delivery_vehicle=fe.DeliveryVehicle()),
        metadata=auth("server"))
    seen["refusals"] = {
        "no_token": status(lambda: client.get_delivery_vehicle(request=fe.GetDeliveryVehicleRequest(name=vehicle_name))),
        "untrusted_driver_sets_stops": status(lambda: set_stops("untrusted_driver", stop(fe.VehicleStop.State.NEW, 35.62, f"{prefix}-delivery"))),
        "other_driver_reads_vehicle": status(lambda: client.get_delivery_vehicle(
            request=fe.GetDeliveryVehicleRequest(name=vehicle_name), metadata=auth("other_driver"))),
        "consumer_other_shipment": status(lambda: client.get_task_tracking_info(
            request=fe.GetTaskTrackingInfoRequest(name=f"{parent}/taskTrackingInfo/{prefix}-lone-ship"), metadata=auth("consumer"))),
        "on_demand_token": status(lambda: client.get_delivery_vehicle(
            request=fe.GetDeliveryVehicleRequest(name=vehicle_name), metadata=auth("on_demand_server"))),
        "task_on_two_vehicles": status(lambda: set_stops(
            "server", stop(fe.VehicleStop.State.NEW, 35.62, f"{prefix}-delivery"), name=other.name)),
        "close_assigned_task": status(lambda: client.update_task(
            request=fe.UpdateTaskRequest(task=fe.Task(name=f"{parent}/tasks/{prefix}-delivery", state=fe.Task.State.CLOSED),
                                         update_mask=field_mask_pb2.FieldMask(paths=["state"])), metadata=auth("server"))),
        "reopen_task": status(lambda: client.update_task(
            request=fe.UpdateTaskRequest(task=fe.Task(name=f"{parent}/tasks/{prefix}-pickup", state=fe.Task.State.OPEN),
                                         update_mask=field_mask_pb2.FieldMask(paths=["state"])), metadata=auth("server"))),
        "second_outcome": status(lambda: client.update_task(
            request=fe.UpdateTaskRequest(task=fe.Task(name=f"{parent}/tasks/{prefix}-pickup", task_outcome=fe.Task.TaskOutcome.FAILED),
                                         update_mask=field_mask_pb2.FieldMask(paths=["task_outcome"])), metadata=auth("server"))),
        "delete_busy_vehicle": status(lambda: client.delete_delivery_vehicle(
            request=fe.DeleteDeliveryVehicleRequest(name=vehicle_name), metadata=auth("server"))),
        "delete_assigned_task": status(lambda: client.delete_task(
            request=fe.DeleteTaskRequest(name=f"{parent}/tasks/{prefix}-delivery"), metadata=auth("server"))),
        "batch_of_501": status(lambda: client.batch_create_tasks(
            request=fe.BatchCreateTasksRequest(parent=parent, requests=[
                fe.CreateTaskRequest(task_id=f"{prefix}-bulk-{n}", task=task(fe.Task.Type.PICKUP, f"{prefix}-bulk", 35.6))
                for n in range(501)]), metadata=auth("server"))),
        "task_without_tracking_id": status(lambda: client.create_task(
            request=fe.CreateTaskRequest(parent=parent, task_id=f"{prefix}-bad", task=task(fe.Task.Type.PICKUP, "", 35.6)),
            metadata=auth("server"))),
        "filter_that_does_not_parse": status(lambda: list(client.list_tasks(
            request=fe.ListTasksRequest(parent=parent, filter="state = (OPEN"), metadata=auth("fleet_reader")))),
        "filter_on_unknown_field": status(lambda: list(client.list_tasks(
            request=fe.ListTasksRequest(parent=parent, filter="planned_location.point.latitude = 1"), metadata=auth("fleet_reader")))),
        "existing_task": status(lambda: client.create_task(
            request=fe.CreateTaskRequest(parent=parent, task_id=f"{prefix}-lone", task=task(fe.Task.Type.DELIVERY, "x", 35.6)),
            metadata=auth("server"))),
        "missing_task": status(lambda: client.get_task(
            request=fe.GetTaskRequest(name=f"{parent}/tasks/{prefix}-nothing"), metadata=auth("server"))),
    }
    try:
        client.batch_create_tasks(
            request=fe.BatchCreateTasksRequest(parent=parent, requests=[
                fe.CreateTaskRequest(task_id=f"{prefix}-big-{n}", task=task(fe.Task.Type.PICKUP, f"{prefix}-big", 35.6))
                for n in range(501)]), metadata=auth("server"))
    except exceptions.GoogleAPICallError as error:
        seen["batch_of_501_says"] = error.message
    no_batch_task_made = status(lambda: client.get_task(
        request=fe.GetTaskRequest(name=f"{parent}/tasks/{prefix}-bulk-0"), metadata=auth("server")))

    # Every method by every app role, on resources its token's claims cover: the status each
    # meets (PERMISSION_DENIED where the role may not, whatever the resource).
    matrix_calls = {
        "create_vehicle": lambda t: client.create_delivery_vehicle(request=fe.CreateDeliveryVehicleRequest(
            parent=parent, delivery_vehicle_id=f"{prefix}-dv", delivery_vehicle=fe.DeliveryVehicle()), metadata=auth(t)),
        "get_vehicle": lambda t: client.get_delivery_vehicle(request=fe.GetDeliveryVehicleRequest(name=vehicle_name), metadata=auth(t)),
        "move_vehicle": lambda t: client.update_delivery_vehicle(request=fe.UpdateDeliveryVehicleRequest(
            delivery_vehicle=fe.DeliveryVehicle(name=vehicle_name, last_location=fe.DeliveryVehicleLocation(location=point(35.606, 139.70))),
            update_mask=field_mask_pb2.FieldMask(paths=["last_location"])), metadata=auth(t)),
        "set_stops": lambda t: set_stops(t, stop(fe.VehicleStop.State.ENROUTE, 35.62, f"{prefix}-delivery")),
        "delete_vehicle": lambda t: client.delete_delivery_vehicle(request=fe.DeleteDeliveryVehicleRequest(name=vehicle_name), metadata=auth(t)),
        "list_vehicles": lambda t: list(client.list_delivery_vehicles(request=fe.ListDeliveryVehiclesRequest(parent=parent), metadata=auth(t))),
        "create_task": lambda t: client.create_task(request=fe.CreateTaskRequest(
            parent=parent, task_id=f"{prefix}-delivery", task=task(fe.Task.Type.DELIVERY, f"{prefix}-ship", 35.6)), metadata=auth(t)),
        "batch": lambda t: client.batch_create_tasks(request=fe.BatchCreateTasksRequest(parent=parent, requests=[
            fe.CreateTaskRequest(task_id=f"{prefix}-delivery", task=task(fe.Task.Type.DELIVERY, f"{prefix}-ship", 35.6))]), metadata=auth(t)),
        "get_task": lambda t: client.get_task(request=fe.GetTaskRequest(name=f"{parent}/tasks/{prefix}-delivery"), metadata=auth(t)),
        "update_task": lambda t: client.update_task(request=fe.UpdateTaskRequest(
            task=fe.Task(name=f"{parent}/tasks/{prefix}-delivery", attributes=[fe.TaskAttribute(key="by", string_value=t)]),
            update_mask=field_mask_pb2.FieldMask(paths=["attributes"])), metadata=auth(t)),
        "delete_task": lambda t: client.delete_task(request=fe.DeleteTaskRequest(name=f"{parent}/tasks/{prefix}-delivery"), metadata=auth(t)),
        "list_tasks": lambda t: list(client.list_tasks(request=fe.ListTasksRequest(parent=parent), metadata=auth(t))),
        "tracking": lambda t: client.get_task_tracking_info(
            request=fe.GetTaskTrackingInfoRequest(name=f"{parent}/taskTrackingInfo/{prefix}-ship"), metadata=auth(t)),
    }
    seen["matrix"] = {
        role: {name: status(lambda call=call: call(role)) for name, call in matrix_calls.items()}
        for role in ("fleet_reader", "trusted_driver", "untrusted_driver", "consumer", "on_demand_server")
    }

    set_stops("server")
    for task_id in ("pickup", "delivery", "lone"):
        client.delete_task(request=fe.DeleteTaskRequest(name=f"{parent}/tasks/{prefix}-{task_id}"), metadata=auth("server"))
    for name in (vehicle_name, other.name):
        client.delete_delivery_vehicle(request=fe.DeleteDeliveryVehicleRequest(name=name), metadata=auth("server"))
    seen["after_cleanup"] = {
        "vehicle": status(lambda: client.get_delivery_vehicle(request=fe.GetDeliveryVehicleRequest(name=vehicle_name), metadata=auth("server"))),
        "batch_task": no_batch_task_made,
    }
    return seen


def main():
    config = json.load(sys.stdin)
    print(json.dumps({transport: drive(client_for(transport, config), transport, config) for transport in ("grpc", "rest")}))


if __name__ == "__main__":
    main()
