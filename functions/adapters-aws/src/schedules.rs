//! The schedules port on EventBridge Scheduler: each task is a schedule in the stack's schedule
//! group, its cron expression read in its time zone, whose target sends the task's message to
//! the jobs queue (with the scheduler's role). Pausing disables it; deleting deletes it.

use crate::error::cause;
use async_trait::async_trait;
use aws_sdk_scheduler::types::{FlexibleTimeWindow, FlexibleTimeWindowMode, ScheduleState, Target};
use vendfleet_app::ports::{ScheduleError, ScheduleSpec, Schedules};

/// Schedules of one deployment.
#[derive(Debug, Clone)]
pub struct EventBridgeSchedules {
    client: aws_sdk_scheduler::Client,
    group: String,
    /// The jobs queue's ARN (the target).
    queue_arn: String,
    /// The role EventBridge Scheduler assumes to send to the queue.
    role_arn: String,
}

fn backend(err: impl std::error::Error + 'static) -> ScheduleError {
    ScheduleError::Backend(cause(&err))
}

impl EventBridgeSchedules {
    /// Schedules in `group` that send to `queue_arn` as `role_arn`.
    pub fn new(
        client: aws_sdk_scheduler::Client,
        group: impl Into<String>,
        queue_arn: impl Into<String>,
        role_arn: impl Into<String>,
    ) -> Self {
        EventBridgeSchedules {
            client,
            group: group.into(),
            queue_arn: queue_arn.into(),
            role_arn: role_arn.into(),
        }
    }

    fn parts(
        &self,
        s: &ScheduleSpec,
    ) -> Result<(FlexibleTimeWindow, Target, ScheduleState), ScheduleError> {
        let window = FlexibleTimeWindow::builder()
            .mode(FlexibleTimeWindowMode::Off)
            .build()
            .map_err(backend)?;
        let target = Target::builder()
            .arn(&self.queue_arn)
            .role_arn(&self.role_arn)
            .input(&s.payload)
            .build()
            .map_err(backend)?;
        let state = if s.enabled {
            ScheduleState::Enabled
        } else {
            ScheduleState::Disabled
        };
        Ok((window, target, state))
    }
}

#[async_trait]
impl Schedules for EventBridgeSchedules {
    fn external(&self) -> bool {
        true
    }

    async fn put(&self, s: &ScheduleSpec) -> Result<(), ScheduleError> {
        let (window, target, state) = self.parts(s)?;
        let updated = self
            .client
            .update_schedule()
            .name(&s.name)
            .group_name(&self.group)
            .schedule_expression(&s.expression)
            .schedule_expression_timezone(&s.time_zone)
            .state(state.clone())
            .flexible_time_window(window.clone())
            .target(target.clone())
            .send()
            .await;
        match updated {
            Ok(_) => Ok(()),
            Err(e)
                if e.as_service_error()
                    .is_some_and(|e| e.is_resource_not_found_exception()) =>
            {
                self.client
                    .create_schedule()
                    .name(&s.name)
                    .group_name(&self.group)
                    .schedule_expression(&s.expression)
                    .schedule_expression_timezone(&s.time_zone)
                    .state(state)
                    .flexible_time_window(window)
                    .target(target)
                    .send()
                    .await
                    .map_err(backend)?;
                Ok(())
            }
            Err(e) => Err(backend(e)),
        }
    }

    async fn delete(&self, name: &str) -> Result<(), ScheduleError> {
        match self
            .client
            .delete_schedule()
            .name(name)
            .group_name(&self.group)
            .send()
            .await
        {
            Ok(_) => Ok(()),
            Err(e)
                if e.as_service_error()
                    .is_some_and(|e| e.is_resource_not_found_exception()) =>
            {
                Ok(())
            }
            Err(e) => Err(backend(e)),
        }
    }

    async fn get(&self, name: &str) -> Result<Option<ScheduleSpec>, ScheduleError> {
        let out = match self
            .client
            .get_schedule()
            .name(name)
            .group_name(&self.group)
            .send()
            .await
        {
            Ok(out) => out,
            Err(e)
                if e.as_service_error()
                    .is_some_and(|e| e.is_resource_not_found_exception()) =>
            {
                return Ok(None)
            }
            Err(e) => return Err(backend(e)),
        };
        Ok(Some(ScheduleSpec {
            name: name.to_string(),
            expression: out.schedule_expression().unwrap_or_default().to_string(),
            time_zone: out
                .schedule_expression_timezone()
                .unwrap_or("UTC")
                .to_string(),
            enabled: out.state() != Some(&ScheduleState::Disabled),
            payload: out
                .target()
                .and_then(|t| t.input())
                .unwrap_or_default()
                .to_string(),
        }))
    }
}
