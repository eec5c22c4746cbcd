// /billing: the wallet's money screen. Top-ups go through the processor's checkout page (the
// sandbox's is served by the API), so the app only ever handles an amount, never a card.
import { useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { autoTopupBody, topupBody } from '../../../../src/http/api/wallet/schemas.ts';
import { baselinePatchBody } from '../../../../src/http/api/baseline/schemas.ts';
import { api, download } from '../../api/client.ts';
import { keys, useBaseline, usePaged, useTenant, useWallet } from '../../api/queries.ts';
import type { Baseline, Invoice, TopupResult, Wallet } from '../../api/types.ts';
import { describeError } from '../../components/errors.ts';
import { validate, type FieldErrors } from '../../components/fns/form.ts';
import { Loading, Notice } from '../../components/ui.tsx';
import { AutoTopupCard, BenchmarkCard, InvoicesCard, PaymentMethodCard, TopupCard, WalletLine } from './BillingView.tsx';
import { dollarsField, microsToDollars } from './fns/amounts.ts';

export default function BillingPage() {
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const wallet = useWallet();
  const baseline = useBaseline();
  const invoices = usePaged<Invoice>(keys.invoices, '/api/tenant/invoices', { limit: '50' });
  const tenant = useTenant();
  // The API decides who may pay (admins and owners); the form stays open unless the tenant read says otherwise.
  const canPay = !tenant.data || ['owner', 'admin'].includes(tenant.data.role);

  const [amount, setAmount] = useState('25.00');
  const [topupErrors, setTopupErrors] = useState<FieldErrors>({});
  const [topupFailure, setTopupFailure] = useState('');
  const topup = useMutation({
    mutationFn: (body: unknown) => api<TopupResult>('POST', '/api/tenant/wallet/topup', body),
    onSuccess: (r) => window.location.assign(r.checkoutUrl),
    onError: (e) => setTopupFailure(describeError(e)),
  });
  const submitTopup = () => {
    setTopupFailure('');
    const body = { amountMicros: dollarsField(amount) };
    const v = validate(topupBody, body);
    if (!v.ok) return setTopupErrors(v.errors);
    setTopupErrors({});
    topup.mutate(body);
  };

  const [threshold, setThreshold] = useState('');
  const [autoAmount, setAutoAmount] = useState('');
  const [autoErrors, setAutoErrors] = useState<FieldErrors>({});
  const [autoFailure, setAutoFailure] = useState('');
  const [autoSaved, setAutoSaved] = useState('');
  useEffect(() => {
    const r = wallet.data?.autoTopup;
    if (r) {
      setThreshold(microsToDollars(r.thresholdMicros));
      setAutoAmount(microsToDollars(r.amountMicros));
    }
  }, [wallet.data?.autoTopup?.thresholdMicros, wallet.data?.autoTopup?.amountMicros]);
  const auto = useMutation({
    mutationFn: (v: { body?: unknown; remove?: boolean }) =>
      v.remove ? api<Wallet>('DELETE', '/api/tenant/wallet/auto-topup') : api<Wallet>('PUT', '/api/tenant/wallet/auto-topup', v.body),
    onSuccess: (w, v) => {
      qc.setQueryData(keys.wallet, w);
      setAutoSaved(v.remove ? 'Automatic top-up is off.' : 'Automatic top-up saved.');
    },
    onError: (e) => setAutoFailure(describeError(e)),
  });
  const saveAuto = () => {
    setAutoFailure('');
    setAutoSaved('');
    const body = { thresholdMicros: dollarsField(threshold), amountMicros: dollarsField(autoAmount) };
    const v = validate(autoTopupBody, body);
    if (!v.ok) return setAutoErrors(v.errors);
    setAutoErrors({});
    auto.mutate({ body });
  };

  const [benchFailure, setBenchFailure] = useState('');
  const [benchSaved, setBenchSaved] = useState('');
  const bench = useMutation({
    mutationFn: (providerKey: string) => api<Baseline>('PATCH', '/api/tenant/baseline', { providerKey }),
    onSuccess: (b) => {
      qc.setQueryData(keys.baseline, b);
      void qc.invalidateQueries({ queryKey: ['insights'] });
      setBenchSaved(`Benchmark provider set to ${b.brand}. It applies to new calls from now on.`);
    },
    onError: (e) => setBenchFailure(describeError(e)),
  });
  const chooseBench = (key: string) => {
    setBenchFailure('');
    setBenchSaved('');
    const v = validate(baselinePatchBody, { providerKey: key });
    if (!v.ok) return setBenchFailure(v.errors.providerKey);
    bench.mutate(key);
  };

  const [pdfFailure, setPdfFailure] = useState('');

  if (wallet.isLoading || baseline.isLoading) return <Loading what="billing" />;
  if (wallet.error || !wallet.data) return <Notice kind="error">{describeError(wallet.error)}</Notice>;
  const status = params.get('status');
  return (
    <>
      <h1>Billing</h1>
      {status === 'success' ? <Notice kind="success">Thank you: the payment was received. The tokens appear as soon as the processor confirms it.</Notice> : null}
      {status === 'cancelled' ? <Notice kind="info">The checkout was cancelled; nothing was charged.</Notice> : null}
      <WalletLine wallet={wallet.data} />
      <TopupCard amount={amount} onAmount={setAmount} errors={topupErrors} failure={topupFailure} busy={topup.isPending} onSubmit={submitTopup} canPay={canPay} />
      <AutoTopupCard
        wallet={wallet.data}
        threshold={threshold}
        amount={autoAmount}
        onThreshold={setThreshold}
        onAmount={setAutoAmount}
        errors={autoErrors}
        failure={autoFailure}
        saved={autoSaved}
        busy={auto.isPending}
        onSave={saveAuto}
        onRemove={() => auto.mutate({ remove: true })}
      />
      {baseline.data ? <BenchmarkCard baseline={baseline.data} onChange={chooseBench} busy={bench.isPending} failure={benchFailure} saved={benchSaved} /> : null}
      <PaymentMethodCard wallet={wallet.data} />
      <InvoicesCard
        invoices={invoices.items}
        more={{ hasMore: invoices.hasMore, loading: invoices.loadingMore, onMore: invoices.loadMore }}
        failure={pdfFailure}
        onPdf={(i) => {
          setPdfFailure('');
          download(i.pdfUrl, `${i.number}.pdf`).catch((e) => setPdfFailure(describeError(e)));
        }}
      />
    </>
  );
}
