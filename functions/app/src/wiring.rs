//! The wiring: every service built once from the adapters (`App::new`).

use std::sync::Arc;

use crate::calendar::Calendar;
use crate::{
    audit, auth, config, dashboard, data_sources, events, fleet, generator, jobs, machines,
    operator_settings, planning, ports, products, records, reports, sales, scheduler, settlements,
    users,
};

/// Everything the HTTP layer needs, built once per process from the adapters.
#[derive(Clone)]
pub struct App {
    /// The trail of data leaving the system.
    pub audit: audit::AuditTrail,
    pub auth: auth::AuthService,
    pub users: users::UsersService,
    pub fleet: fleet::FleetService,
    pub operator_settings: operator_settings::OperatorSettingsService,
    pub machines: machines::MachinesService,
    pub products: products::ProductsService,
    pub events: events::EventsService,
    /// Telemetry providers' feeds (Nayax Core's queues) into the intake.
    pub data_sources: data_sources::DataSourcesService,
    pub sales: sales::SalesService,
    pub dashboard: dashboard::DashboardService,
    pub reports: reports::ReportsService,
    pub jobs: jobs::JobsService,
    pub generator: generator::GeneratorService,
    pub scheduler: scheduler::SchedulerService,
    pub planning: planning::PlanningService,
    pub settlements: settlements::SettlementsService,
    /// Where scheduled reports leave by e-mail.
    pub mailer: Arc<dyn ports::Mailer>,
    pub clock: Arc<dyn ports::Clock>,
    pub calendar: Calendar,
}

/// The adapters the application runs on.
#[derive(Clone)]
pub struct Adapters {
    pub store: Arc<dyn ports::ItemStore>,
    pub sales: Arc<dyn ports::SalesStore>,
    /// Set where the webhook hands events to a worker (AWS); `None` applies them at once.
    pub events_handoff: Option<Arc<dyn ports::JobQueue>>,
    /// Files of exports and reports.
    pub blobs: Arc<dyn ports::BlobStore>,
    /// The background jobs' queue.
    pub jobs: Arc<dyn ports::JobQueue>,
    /// Where scheduled reports leave by e-mail.
    pub mailer: Arc<dyn ports::Mailer>,
    /// Where scheduled tasks are timed (`InProcessSchedules` embedded).
    pub schedules: Arc<dyn ports::Schedules>,
}

impl App {
    /// Wires the services onto the given adapters.
    pub fn new(
        adapters: Adapters,
        clock: Arc<dyn ports::Clock>,
        auth_settings: config::AuthSettings,
        operator: config::OperatorSettings,
    ) -> Self {
        // Every write the services make goes through the snapshot store, which keeps the
        // catalogue's version (see `records::snapshot`).
        // It and the sales commits mark the machines they write (`records::touched`): planning
        // keeps each machine's status and selections where this process is the sole writer.
        let sole_writer = adapters.sales.sole_writer();
        let touched =
            sole_writer.then(|| Arc::new(records::Touched::new(machines::Machine::PARTITION)));
        let store: Arc<dyn ports::ItemStore> =
            Arc::new(records::SnapshotStore::new(adapters.store, touched.clone()));
        let calendar = Calendar::new(clock.clone(), operator);
        let directory = users::Directory::new(store.clone());
        let fleet = fleet::FleetService::new(store.clone(), directory.clone(), clock.clone());
        let machines =
            machines::MachinesService::new(store.clone(), fleet.clone(), calendar.clone());
        let products = products::ProductsService::new(store.clone(), clock.clone());
        let sales = sales::SalesService::new(
            adapters.sales.clone(),
            machines.clone(),
            fleet.clone(),
            products.clone(),
            calendar.clone(),
            touched.clone(),
        );
        let events = events::EventsService::new(
            store.clone(),
            sales.clone(),
            machines.clone(),
            directory.clone(),
            calendar.clone(),
            adapters.events_handoff,
        );
        let planning = planning::PlanningService::new(
            store.clone(),
            sales.clone(),
            machines.clone(),
            events.clone(),
            products.clone(),
            fleet.clone(),
            directory.clone(),
            calendar.clone(),
            touched,
        );
        let settlements = settlements::SettlementsService::new(
            store.clone(),
            machines.clone(),
            sales.clone(),
            calendar.clone(),
        );
        let dashboard = dashboard::DashboardService::new(
            sales.clone(),
            machines.clone(),
            events.clone(),
            planning.clone(),
            calendar.clone(),
        );
        let reports = reports::ReportsService::new(
            sales.clone(),
            events.clone(),
            machines.clone(),
            products.clone(),
            calendar.clone(),
        );
        let generator = generator::GeneratorService::new(
            store.clone(),
            adapters.blobs.clone(),
            adapters.jobs.clone(),
            directory.clone(),
            machines.clone(),
            fleet.clone(),
            clock.clone(),
        );
        let operator_settings =
            operator_settings::OperatorSettingsService::new(store.clone(), clock.clone());
        let scheduler = scheduler::SchedulerService::new(
            store.clone(),
            generator.clone(),
            adapters.schedules,
            directory.clone(),
            operator_settings.clone(),
            clock.clone(),
        );
        let data_sources = data_sources::DataSourcesService::new(
            store.clone(),
            events.clone(),
            machines.clone(),
            products.clone(),
            calendar.clone(),
            adapters.blobs.clone(),
            adapters.jobs.clone(),
        );
        let jobs =
            jobs::JobsService::new(store.clone(), adapters.blobs, adapters.jobs, clock.clone());
        App {
            audit: audit::AuditTrail::new(store.clone(), clock.clone()),
            planning,
            settlements,
            events,
            data_sources,
            jobs,
            generator,
            scheduler,
            mailer: adapters.mailer,
            auth: auth::AuthService::new(directory.clone(), clock.clone(), auth_settings),
            users: users::UsersService::new(
                directory.clone(),
                clock.clone(),
                Arc::new(machines.clone()),
            ),
            machines,
            products,
            sales,
            dashboard,
            reports,
            fleet,
            operator_settings,
            clock,
            calendar,
        }
    }
}
