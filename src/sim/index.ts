// The simulated upstream's public surface (used by `main.ts sim`, tests and benchmarks).
export { startSim, SIM_FINGERPRINT, type SimCall, type SimHandle, type SimOptions, type SimStats } from './server.ts';
export { SIM_PROVIDERS, type ActiveFault, type FaultController, type FaultRule, type SimProvider, type SimWire } from './faults.ts';
export { BAD_ANSWERS, type BadAnswer } from './answer.ts';
