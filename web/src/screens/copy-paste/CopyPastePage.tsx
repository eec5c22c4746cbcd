// /copy-paste (tier 5, D13): paste a prompt, choose the project, get the answer to paste back. The
// call goes through POST /api/copy-paste: routed, billed and ledgered on channel copy-paste.
import { useEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { copyPasteBody } from '../../../../src/http/api/copy-paste/schemas.ts';
import { api } from '../../api/client.ts';
import { keys, useProjectChoices } from '../../api/queries.ts';
import type { CopyPasteAnswer } from '../../api/types.ts';
import { describeError } from '../../components/errors.ts';
import { validate, type FieldErrors } from '../../components/fns/form.ts';
import { Loading, Notice } from '../../components/ui.tsx';
import { AnswerCard, PromptCard, type CopyPasteForm } from './CopyPasteView.tsx';
import '../workspaces.css';

export default function CopyPastePage() {
  const qc = useQueryClient();
  const [form, setForm] = useState<CopyPasteForm>({ projectId: '', system: '', prompt: '' });
  // D9 pages of 200, the default project first, then "Load more" under the select.
  const projects = useProjectChoices(form.projectId);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState('');
  const [copied, setCopied] = useState('');
  const answerRef = useRef<HTMLDivElement>(null);
  const items = projects.items;
  useEffect(() => {
    if (!form.projectId && items.length) setForm((f) => ({ ...f, projectId: (items.find((p) => p.isDefault) ?? items[0]).id }));
  }, [items, form.projectId]);

  const ask = useMutation({
    mutationFn: (body: unknown) => api<CopyPasteAnswer>('POST', '/api/copy-paste', body),
    onSuccess: () => {
      // The wallet moved and the feeds have a new call.
      void qc.invalidateQueries({ queryKey: keys.wallet });
      void qc.invalidateQueries({ queryKey: ['insights'] });
      void qc.invalidateQueries({ queryKey: ['ledger'] });
      // A first billed call moves the project's stage (D4).
      void qc.invalidateQueries({ queryKey: keys.projects });
    },
    onError: (e) => setFailure(describeError(e)),
  });
  // A new answer takes the focus, so a keyboard user lands on it (and a screen reader reads it).
  useEffect(() => {
    if (ask.data) answerRef.current?.querySelector<HTMLElement>('[data-testid="answer"]')?.focus();
  }, [ask.data]);
  const submit = () => {
    setFailure('');
    setCopied('');
    const body = { projectId: form.projectId, prompt: form.prompt, ...(form.system.trim() ? { system: form.system } : {}) };
    const v = validate(copyPasteBody, body);
    if (!v.ok) return setErrors(v.errors);
    setErrors({});
    ask.mutate(body);
  };
  const copy = async () => {
    if (!ask.data) return;
    try {
      await navigator.clipboard.writeText(ask.data.text);
      setCopied('Copied: paste it where you need it.');
    } catch {
      setCopied('');
      setFailure('The browser did not allow copying: select the answer and press Ctrl+C (⌘C on a Mac).');
    }
  };

  if (projects.isLoading) return <Loading what="your projects" />;
  if (projects.error) return <Notice kind="error">{describeError(projects.error)}</Notice>;
  return (
    <>
      <h1>Copy-paste</h1>
      <p className="lead">For tools Switchboard cannot plug into: paste the prompt here, get the answer routed, billed and saved like any other call, and paste it back.</p>
      <PromptCard form={form} projects={items} more={projects} errors={errors} failure={failure} busy={ask.isPending} onChange={setForm} onSubmit={submit} />
      <div ref={answerRef}>{ask.data ? <AnswerCard answer={ask.data} copied={copied} onCopy={() => void copy()} /> : null}</div>
    </>
  );
}
