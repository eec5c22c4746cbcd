// /advisory (tier 6, D14): upload a history of calls (NDJSON or CSV) and see what Switchboard would
// have done and saved. Read-only: nothing goes to a model and the wallet does not move. The import
// runs in the worker; the page polls its report until it is done (`?import=<id>` names it, as the
// CLI's report links to it).
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { download, get, uploadFile } from '../../api/client.ts';
import type { AdvisoryImport, AdvisoryReport } from '../../api/types.ts';
import { describeError } from '../../components/errors.ts';
import { Button, Card, Loading, Notice } from '../../components/ui.tsx';
import { AdvisoryReportView, ImportProgress } from './AdvisoryView.tsx';
import './advisory.css';

const finished = (s: string | undefined) => s === 'done' || s === 'failed';

export default function AdvisoryPage() {
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const selected = params.get('import');
  const [file, setFile] = useState<File | null>(null);
  // Bumped after an upload so the file picker comes back empty.
  const [picker, setPicker] = useState(0);
  const [failure, setFailure] = useState('');
  const [exportFailure, setExportFailure] = useState('');
  const [exporting, setExporting] = useState(false);

  const imports = useQuery({ queryKey: ['advisory', 'imports'], queryFn: ({ signal }) => get<{ items: AdvisoryImport[] }>('/api/advisory/imports', signal) });
  const current = selected ?? imports.data?.items[0]?.id ?? null;
  const report = useQuery({
    queryKey: ['advisory', 'report', current],
    enabled: current !== null,
    queryFn: ({ signal }) => get<AdvisoryReport>(`/api/advisory/imports/${current}?limit=50`, signal),
    // Poll while the worker classifies; stop once the report is final.
    refetchInterval: (q) => (finished(q.state.data?.status) ? false : 1000),
  });

  const upload = useMutation({
    mutationFn: (f: File) => uploadFile<AdvisoryImport>(`/api/advisory/imports?filename=${encodeURIComponent(f.name)}`, f, /\.csv$/i.test(f.name) ? 'text/csv' : 'application/x-ndjson'),
    onSuccess: (imp) => {
      setFile(null);
      setPicker((n) => n + 1);
      void qc.invalidateQueries({ queryKey: ['advisory', 'imports'] });
      setParams({ import: imp.id });
    },
    onError: (e) => setFailure(describeError(e)),
  });

  const exportCsv = async () => {
    if (!current) return;
    setExportFailure('');
    setExporting(true);
    try {
      await download(`/api/advisory/imports/${current}/export`, `advisory-${current}.csv`);
    } catch (e) {
      setExportFailure(describeError(e));
    } finally {
      setExporting(false);
    }
  };

  const r = report.data;
  return (
    <>
      <h1>Advisory</h1>
      <p className="lead">See what Switchboard would have saved on calls you already made. Upload a history of calls: nothing is sent to any model and your wallet is not touched.</p>
      <Card title="Upload a history">
        <form
          className="advisory-upload"
          onSubmit={(e) => {
            e.preventDefault();
            setFailure('');
            if (!file) return setFailure('Choose a file first: an NDJSON or CSV export of your calls.');
            upload.mutate(file);
          }}
        >
          <label htmlFor="advisory-file">Call history (NDJSON or CSV, up to 100,000 lines)</label>
          <input key={picker} id="advisory-file" name="file" type="file" accept=".ndjson,.jsonl,.json,.csv,text/csv,application/x-ndjson" aria-describedby="advisory-file-help" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
          <p id="advisory-file-help" className="muted">
            NDJSON: one logged call per line as <code>{'{request, response}'}</code> in the OpenAI, Anthropic or Gemini format, or an OpenAI Batch output file. CSV: the header <code>timestamp,provider,model,prompt,completion,input_tokens,output_tokens</code>.
          </p>
          <Button type="submit" isDisabled={upload.isPending}>
            {upload.isPending ? 'Uploading…' : 'Upload and analyse'}
          </Button>
        </form>
        <Notice kind="error">{failure}</Notice>
      </Card>

      {imports.data && imports.data.items.length > 1 ? (
        <div className="filters advisory-pick">
          <label>
            Import
            <select value={current ?? ''} onChange={(e) => setParams({ import: e.target.value })}>
              {imports.data.items.map((i) => (
                <option key={i.id} value={i.id}>
                  {(i.filename ?? 'Upload') + ' · ' + new Date(i.createdAt).toLocaleString()}
                </option>
              ))}
            </select>
          </label>
        </div>
      ) : null}

      {imports.isLoading ? <Loading what="your imports" /> : null}
      {imports.error ? <Notice kind="error">{describeError(imports.error)}</Notice> : null}
      {report.error ? <Notice kind="error">{describeError(report.error)}</Notice> : null}
      {imports.data && imports.data.items.length === 0 && !current ? <p className="muted">No imports yet: upload a history above to see your report.</p> : null}
      {r ? (
        <section aria-label="Advisory report" aria-busy={!finished(r.status)}>
          <h2 className="advisory-title">{r.filename ?? 'Import'}</h2>
          {!finished(r.status) || r.status === 'failed' ? <ImportProgress imp={r} /> : null}
          {r.status === 'failed' ? <Notice kind="error">{r.error ?? 'The import failed: upload the file again.'}</Notice> : null}
          {r.status === 'done' ? <AdvisoryReportView report={r} onExport={() => void exportCsv()} exporting={exporting} /> : null}
          <Notice kind="error">{exportFailure}</Notice>
        </section>
      ) : null}
    </>
  );
}
