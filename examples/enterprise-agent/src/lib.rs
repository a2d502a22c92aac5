//! The enterprise-agent example: `SNMP-CODEGEN-EXAMPLE-MIB` (mibs/), compiled by build.rs with
//! its agent side, implemented by a small application of jobs. The application keeps its
//! data in the generated types ([`App`]); the agent serves them with no hand-written OID, BER
//! or error-status code: what the MIB says a value may be is checked by generated code,
//! RowStatus is driven by `snmp_agent::Table`.
//!
//! ```
//! use enterprise_agent::App;
//! use snmp_agent::Handler;
//!
//! let app = App::new();
//! app.add_jobs(3);
//! let mut registry = app.registry();
//! // exampleJobName.2, as a GET through the registry.
//! let v = registry.get(&[1, 3, 6, 1, 4, 1, 8072, 9999, 7, 1, 4, 1, 2, 2]).unwrap();
//! assert_eq!(v, snmp_client::Value::OctetString(b"job-2"[..].into()));
//! ```

include!(concat!(env!("OUT_DIR"), "/mibs.rs"));

use std::sync::{Arc, Mutex};
use std::time::Instant;

use snmp_agent::{
    shared, Registry, ScalarHooks, ScalarValues, Scalars, Table, TableHooks, TableRows,
};
use snmp_codegen_example_mib::{
    ExampleJobEnabled, ExampleJobEntry, ExampleJobEntryIndex, ExampleJobFailed, ExampleJobPriority,
    ExampleJobStatus, ExampleObjectsScalars,
};
use snmp_mib::Row;

/// The application: its scalars and its jobs, shared with the agent.
#[derive(Debug, Clone)]
pub struct App {
    /// exampleUptime, exampleDescription, exampleJobCount.
    pub scalars: ScalarValues<ExampleObjectsScalars>,
    /// exampleJobTable.
    pub jobs: TableRows<ExampleJobEntry>,
    started: Instant,
}

impl Default for App {
    fn default() -> Self {
        App::new()
    }
}

/// Keeps exampleUptime and exampleJobCount current when a request reads them.
struct Live {
    jobs: TableRows<ExampleJobEntry>,
    started: Instant,
}

impl ScalarHooks<ExampleObjectsScalars> for Live {
    fn refresh(&mut self, values: &mut ExampleObjectsScalars) {
        let ticks = self.started.elapsed().as_millis() / 10;
        values.example_uptime = Some(u32::try_from(ticks).unwrap_or(u32::MAX));
        let count = self.jobs.lock().map_or(0, |j| j.len());
        values.example_job_count = Some(i32::try_from(count).unwrap_or(i32::MAX));
    }
}

/// What a job needs to run: a name. A created job is enabled at normal priority unless the
/// SET says otherwise, and has not run yet.
struct Jobs;

impl TableHooks<ExampleJobEntry> for Jobs {
    fn ready(&self, row: &ExampleJobEntry) -> bool {
        row.example_job_name.is_some()
    }

    fn check(
        &mut self,
        old: Option<&ExampleJobEntry>,
        new: Option<&ExampleJobEntry>,
    ) -> Result<(), snmp_agent::ErrorStatus> {
        // A job's name is fixed while the job is active.
        match (old, new) {
            (Some(o), Some(n))
                if o.example_job_status == Some(ExampleJobStatus::Active)
                    && n.example_job_status == Some(ExampleJobStatus::Active)
                    && o.example_job_name != n.example_job_name =>
            {
                Err(snmp_agent::ErrorStatus::InconsistentValue)
            }
            _ => Ok(()),
        }
    }

    fn changed(&mut self, old: Option<&ExampleJobEntry>, new: Option<&ExampleJobEntry>) {
        if old.is_none() {
            if let Some(n) = new {
                tracing::info!(job = n.index.example_job_index, "job created");
            }
        }
    }
}

impl App {
    /// No jobs yet; described as "example".
    pub fn new() -> App {
        let scalars = ExampleObjectsScalars {
            example_description: Some("example".into()),
            ..Default::default()
        };
        App {
            scalars: shared(scalars),
            jobs: shared(Default::default()),
            started: Instant::now(),
        }
    }

    /// A job, active and enabled.
    pub fn job(index: i32, name: &str) -> ExampleJobEntry {
        let mut row = ExampleJobEntry::new(ExampleJobEntryIndex {
            example_job_index: index,
        });
        row.example_job_name = Some(name.into());
        row.example_job_priority = Some(ExampleJobPriority::Normal);
        row.example_job_runs = Some(0);
        row.example_job_enabled = Some(ExampleJobEnabled::True);
        row.example_job_status = Some(ExampleJobStatus::Active);
        row
    }

    /// Adds jobs 1 to `n`, named `job-K`.
    pub fn add_jobs(&self, n: usize) {
        let mut jobs = lock(&self.jobs);
        for k in 1..=n {
            let index = i32::try_from(k).unwrap_or(i32::MAX);
            jobs.insert(App::job(index, &format!("job-{k}")));
        }
    }

    /// The handlers serving the application's data: its scalars and its table.
    pub fn registry(&self) -> Registry {
        let mut registry = Registry::new();
        let live = Live {
            jobs: self.jobs.clone(),
            started: self.started,
        };
        let registered = registry
            .register(Scalars::with_hooks(self.scalars.clone(), live))
            .and_then(|()| registry.register(Table::with_hooks(self.jobs.clone(), Jobs)));
        // The two subtrees are the MIB's own and apart: registering them cannot fail.
        registered.expect("the example's subtrees do not overlap");
        registry
    }

    /// One run of every active, enabled job (a job whose name starts with `fail` fails):
    /// the notifications to send.
    pub fn run_jobs(&self) -> Vec<ExampleJobFailed> {
        let mut failed = Vec::new();
        let mut jobs = lock(&self.jobs);
        let indexes: Vec<ExampleJobEntryIndex> = jobs.iter().map(|j| j.index.clone()).collect();
        for index in indexes {
            let Some(job) = jobs.get_mut(&index) else {
                continue;
            };
            if job.example_job_status != Some(ExampleJobStatus::Active)
                || job.example_job_enabled == Some(ExampleJobEnabled::False)
            {
                continue;
            }
            let runs = job.example_job_runs.unwrap_or(0) + 1;
            job.example_job_runs = Some(runs);
            let name = job.example_job_name.clone().unwrap_or_default();
            if name.starts_with("fail") {
                failed.push(ExampleJobFailed {
                    instance: vec![index.example_job_index as u32],
                    example_job_name: name,
                    example_job_runs: runs,
                });
            }
        }
        failed
    }
}

fn lock<T>(m: &Arc<Mutex<T>>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
