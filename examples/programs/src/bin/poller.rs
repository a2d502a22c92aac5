//! A poller over many agents: each round, every agent gets a GET of sysUpTime.0 and a walk of
//! ifTable into typed rows, one request at a time per agent, rounds on a schedule that counts
//! the rounds a slow one made it miss.
//!
//! `poller COMMUNITY ROUNDS INTERVAL-MS AGENT...`, an agent `HOST:PORT` or a range of ports
//! `HOST:FIRST-LAST` (`127.0.0.1:20000-20099`: 100 agents).

use std::net::SocketAddr;
use std::time::Duration;

use example_programs::if_mib::IfEntry;
use snmp_client::poll::{AsyncPoller, Job, Target};
use snmp_client::{Credentials, Options};

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    example_programs::report(run().await)
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [community, rounds, interval, agents @ ..] = &args[..] else {
        return Err("usage: poller COMMUNITY ROUNDS INTERVAL-MS AGENT...".into());
    };
    let credentials = Credentials::V2c(community.clone().into_bytes());
    let mut targets = Vec::new();
    for agent in agents {
        for addr in addresses(agent)? {
            targets.push(Target {
                addr,
                credentials: credentials.clone(),
            });
        }
    }
    // A second for an answer, one retry: a silent agent costs its jobs 2 s a round.
    let options = Options {
        timeout: Duration::from_secs(1),
        retries: 1,
        ..Options::default()
    };
    let mut poller = AsyncPoller::new(targets, options, 64).await?;
    let job = Job::All(vec![
        Job::Get(vec!["1.3.6.1.2.1.1.3.0".parse()?]),
        Job::Walk("1.3.6.1.2.1.2.2".parse()?),
    ]);
    let mut schedule = poller.every(job, Duration::from_millis(interval.parse()?));
    for _ in 0..rounds.parse::<u64>()? {
        let round = schedule.next().await?;
        let (mut answered, mut failed, mut interfaces) = (0, 0, 0);
        for outcome in round.outcomes {
            match (outcome.job, outcome.into_rows::<IfEntry>()) {
                (0, Ok(_)) => answered += 1,
                (_, Ok(rows)) => interfaces += rows.len(),
                (_, Err(e)) => {
                    failed += 1;
                    eprintln!("round {}: {e}", round.number);
                }
            }
        }
        println!(
            "round {}: {answered} agents answered, {interfaces} interfaces, {failed} failed, {} missed",
            round.number, round.missed
        );
    }
    Ok(())
}

/// `HOST:PORT`, or every port of `HOST:FIRST-LAST`.
fn addresses(agent: &str) -> Result<Vec<SocketAddr>, Box<dyn std::error::Error>> {
    let (host, ports) = agent.rsplit_once(':').ok_or("an agent is HOST:PORT")?;
    let (first, last) = ports.split_once('-').unwrap_or((ports, ports));
    let (first, last): (u16, u16) = (first.parse()?, last.parse()?);
    let ip = host.parse()?;
    Ok((first..=last).map(|p| SocketAddr::new(ip, p)).collect())
}
