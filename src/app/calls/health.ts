// Observed upstream health for Layer 2 (D12): a circuit per provider and per endpoint, and an
// EWMA of latency per endpoint. Per process, in memory: each replica learns from its own traffic,
// which is what decides its own failover.
import { beginAttempt, closedCircuit, recordFailure, recordSuccess, type CircuitState } from '../../core/routing/circuit.ts';
import type { EndpointHealth } from '../../core/routing/layer2.ts';

const EWMA_ALPHA = 0.2;

export class HealthTracker {
  private circuits: Record<string, CircuitState> = {};
  private latency: Record<string, number> = {};

  snapshot(): EndpointHealth {
    return { circuits: this.circuits, latencyEwmaMs: this.latency };
  }

  begin(provider: string, endpoint: string, now: number): void {
    for (const k of [provider, endpoint]) this.circuits[k] = beginAttempt(this.circuits[k] ?? closedCircuit(now), now);
  }

  success(provider: string, endpoint: string, latencyMs: number, now: number): void {
    for (const k of [provider, endpoint]) this.circuits[k] = recordSuccess(this.circuits[k] ?? closedCircuit(now), now);
    const prev = this.latency[endpoint];
    this.latency[endpoint] = prev === undefined ? latencyMs : prev + EWMA_ALPHA * (latencyMs - prev);
  }

  failure(provider: string, endpoint: string, now: number): void {
    for (const k of [provider, endpoint]) this.circuits[k] = recordFailure(this.circuits[k] ?? closedCircuit(now), now);
  }
}
