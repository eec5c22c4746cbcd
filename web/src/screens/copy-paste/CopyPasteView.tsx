// /copy-paste, pure: the prompt form (project, optional system text, prompt) and the answer with
// its copy button, its cost and its savings in the locked vocabulary (spec §1).
import { Label, TextArea, TextField, Text, FieldError } from 'react-aria-components';
import { Link } from 'react-router';
import type { CopyPasteAnswer, Project } from '../../api/types.ts';
import { Button, Card, Notice, ProjectsMore, type ProjectPages } from '../../components/ui.tsx';
import type { FieldErrors } from '../../components/fns/form.ts';
import { formatCostUsd, formatTokens } from '../../components/fns/money.ts';

export function AreaField(p: { label: string; name: string; value: string; onChange: (v: string) => void; error?: string; description?: string; rows: number; isRequired?: boolean }) {
  return (
    <TextField className="field" name={p.name} value={p.value} onChange={p.onChange} isInvalid={!!p.error} isRequired={p.isRequired} validationBehavior="aria">
      <Label>{p.label}</Label>
      <TextArea rows={p.rows} className="area" />
      {p.description ? <Text slot="description">{p.description}</Text> : null}
      <FieldError>{p.error}</FieldError>
    </TextField>
  );
}

export interface CopyPasteForm {
  projectId: string;
  system: string;
  prompt: string;
}

export function PromptCard(p: { form: CopyPasteForm; projects: Project[]; more: ProjectPages; errors: FieldErrors; failure: string; busy: boolean; onChange: (f: CopyPasteForm) => void; onSubmit: () => void }) {
  return (
    <Card title="Your prompt">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          p.onSubmit();
        }}
        aria-label="Ask through Switchboard"
      >
        <div className="field">
          <label htmlFor="cp-project">Project</label>
          <select id="cp-project" className="select" value={p.form.projectId} onChange={(e) => p.onChange({ ...p.form, projectId: e.target.value })} aria-describedby="cp-project-help">
            {p.projects.map((pr) => (
              <option key={pr.id} value={pr.id}>
                {pr.name}
              </option>
            ))}
          </select>
          <span id="cp-project-help" className="small muted">
            The call is billed to the wallet and counted in this project's budget and activity.
          </span>
          {p.errors.projectId ? <span className="field-error">{p.errors.projectId}</span> : null}
          <ProjectsMore {...p.more} />
        </div>
        <AreaField label="System text (optional)" name="system" rows={3} value={p.form.system} onChange={(system) => p.onChange({ ...p.form, system })} error={p.errors.system} description="Instructions for how to answer, e.g. “Answer in French, in three sentences.”" />
        <AreaField label="Prompt" name="prompt" rows={8} isRequired value={p.form.prompt} onChange={(prompt) => p.onChange({ ...p.form, prompt })} error={p.errors.prompt} />
        <Notice kind="error">{p.failure}</Notice>
        <Button type="submit" isDisabled={p.busy}>
          {p.busy ? 'Getting the answer…' : 'Get the answer'}
        </Button>
      </form>
    </Card>
  );
}

export function AnswerCard(p: { answer: CopyPasteAnswer; copied: string; onCopy: () => void }) {
  const a = p.answer;
  return (
    <Card
      title="Answer"
      actions={
        <Button variant="secondary" onPress={p.onCopy}>
          Copy answer
        </Button>
      }
    >
      <Notice kind="success">{p.copied}</Notice>
      <pre className="answer" data-testid="answer" tabIndex={0} aria-label="Answer text">
        {a.text}
      </pre>
      <dl className="totals" data-testid="answer-figures">
        <div>
          <dt>Cost (service burn)</dt>
          <dd data-testid="answer-cost">
            {formatTokens(a.costMicros)} tokens ({formatCostUsd(a.costMicros)})
          </dd>
        </div>
        <div>
          <dt>Tokens saved</dt>
          <dd data-testid="answer-saved">
            {a.savingsTokens === null ? (
              <>
                Choose a benchmark provider on <Link to="/billing">Billing</Link> to see savings.
              </>
            ) : (
              `${formatTokens(a.savingsTokens)} tokens vs ${a.benchmarkProvider ?? 'the benchmark'}`
            )}
          </dd>
        </div>
        <div>
          <dt>Model class</dt>
          <dd>{a.modelClass}</dd>
        </div>
      </dl>
      <p className="small muted">
        Call {a.callId.slice(0, 8)} · in the ledger as AI usage on channel copy-paste.
      </p>
    </Card>
  );
}
