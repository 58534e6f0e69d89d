/// Delivery resources as the API shows them: what Google fills in from other resources.
extension DeliveryVehicle {
    /// The vehicle with each stop's task entries carrying their task's duration and time
    /// window, from `task` (the latest version of each task).
    func presented(task: (String) -> DeliveryTask?) -> DeliveryVehicle {
        guard !remainingVehicleJourneySegments.isEmpty else { return self }
        var shown = self
        for segment in shown.remainingVehicleJourneySegments.indices {
            for entry in shown.remainingVehicleJourneySegments[segment].stop.tasks.indices {
                let info = shown.remainingVehicleJourneySegments[segment].stop.tasks[entry]
                guard let task = task(info.taskID) else { continue }
                shown.remainingVehicleJourneySegments[segment].stop.tasks[entry].taskDuration = task.taskDuration
                if task.hasTargetTimeWindow {
                    shown.remainingVehicleJourneySegments[segment].stop.tasks[entry].targetTimeWindow =
                        task.targetTimeWindow
                }
            }
        }
        return shown
    }

    /// The vehicle as a listing shows it: without its stops, as Google's lists leave them out.
    var listed: DeliveryVehicle {
        var shown = self
        shown.remainingVehicleJourneySegments = []
        return shown
    }
}
