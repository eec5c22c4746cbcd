// Shapes of the admin learning-plane endpoints (spec §4) as the screens read them: camelCase,
// money as decimal strings of USD micros, times as ISO strings.
export interface Proposal {
  id: string;
  status: 'minted';
  priority: 'high' | 'medium' | 'low';
  sourceSignal: string;
  subjectKey: string;
  title: string;
  fires: number;
  gate1ResultId: string | null;
  gate2ResultId: string | null;
  validationCostMicros: string;
  lastValidatedAt: string | null;
  validationStale: boolean;
  createdAt: string;
}
export interface GateResult { id: string; gateId: 'synthetic' | 'replay'; passed: boolean; numerator: number; denominator: number; threshold: number; reason: string; evaluatedAt: string }
export interface ProposalDetail extends Proposal { gateResults: GateResult[] }
export interface SynthCase { id: string; caseHash: string; generationMethod: string; inputBlob: { messages: Array<{ content: Array<{ type: string; text?: string }> }> }; qualityScore: { accepted: boolean; rejectionReason: string | null; duplicationScore: number; noveltyScore: number } }
export interface Batch { id: string; policyName: string; tier: string; windowKey: string; status: string; caseCount: number; acceptedCount: number; actualCostMicros: string; cases: SynthCase[] }
export interface ReplayRun { id: string; caseCount: number; passedCount: number; failedCount: number; createdAt: string; results: Array<{ id: string; passed: boolean; divergenceReason: string | null }> }
export interface Cost {
  totalValidationCostMicros: string;
  caseCountSynthetic: number;
  caseCountReplay: number;
  runCount: number;
  breakdown: { withdrawals: Array<{ id: string; amountMicros: string; idempotencyKey: string; reason: string }>; syntheticBatches: Array<{ id: string; policyName: string; actualCostMicros: string }> };
}
export const SIGNALS = ['cost', 'quality', 'latency', 'drift', 'coverage', 'escalation'] as const;
export const PRIORITIES = ['high', 'medium', 'low'] as const;
export const caseText = (c: SynthCase) => c.inputBlob.messages.flatMap((m) => m.content).map((p) => p.text ?? '').join(' ');
