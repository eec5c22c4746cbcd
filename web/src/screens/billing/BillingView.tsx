// /billing, pure: add tokens, the auto-top-up rule, the benchmark provider, the payment method
// (a label from the processor: the service never sees card data) and invoices with their PDFs.
import { Radio, RadioGroup, Label } from 'react-aria-components';
import type { Baseline, Invoice, Wallet } from '../../api/types.ts';
import { Button, Card, Field, LoadMore, Notice } from '../../components/ui.tsx';
import { formatTokens, formatUsd } from '../../components/fns/money.ts';
import { formatDay } from '../../components/fns/dates.ts';
import type { FieldErrors } from '../../components/fns/form.ts';

export const BRAND_CHOICES = [
  { key: 'openai', brand: 'OpenAI' },
  { key: 'anthropic', brand: 'Anthropic' },
  { key: 'google', brand: 'Google' },
  { key: 'mistral', brand: 'Mistral' },
  { key: 'deepseek', brand: 'DeepSeek' },
] as const;

export function TopupCard(p: { amount: string; onAmount: (v: string) => void; errors: FieldErrors; failure: string; busy: boolean; onSubmit: () => void; canPay: boolean }) {
  return (
    <Card title="Add tokens">
      <p>1 token = $0.000001. You pay on the checkout page; the tokens are added as soon as the payment is confirmed.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          p.onSubmit();
        }}
        noValidate
        className="inline-form"
      >
        <Field label="Amount in US dollars" name="amount" inputMode="decimal" value={p.amount} onChange={p.onAmount} error={p.errors.amountMicros} description="From $1 to $10,000, in whole cents." />
        <Button type="submit" isDisabled={p.busy || !p.canPay}>
          {p.busy ? 'Opening checkout…' : 'Go to checkout'}
        </Button>
      </form>
      {!p.canPay ? <p className="muted">Only owners and admins can add tokens.</p> : null}
      <Notice kind="error">{p.failure}</Notice>
    </Card>
  );
}

export function AutoTopupCard(p: {
  wallet: Wallet;
  threshold: string;
  amount: string;
  onThreshold: (v: string) => void;
  onAmount: (v: string) => void;
  errors: FieldErrors;
  failure: string;
  saved: string;
  busy: boolean;
  onSave: () => void;
  onRemove: () => void;
}) {
  const rule = p.wallet.autoTopup;
  return (
    <Card title="Automatic top-up">
      {rule ? (
        <p data-testid="auto-topup-rule">
          When the balance falls below <strong>{formatTokens(rule.thresholdMicros)} tokens</strong> ({formatUsd(rule.thresholdMicros)}), the saved card is charged{' '}
          <strong>{formatUsd(rule.amountMicros)}</strong>.
        </p>
      ) : (
        <p>Off. Set a threshold and an amount to refill the wallet automatically{p.wallet.paymentMethod ? '' : ' (it needs a saved card: pay once through the checkout first)'}.</p>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          p.onSave();
        }}
        noValidate
        className="inline-form"
      >
        <Field label="When the balance is below (US dollars)" name="threshold" inputMode="decimal" value={p.threshold} onChange={p.onThreshold} error={p.errors.thresholdMicros} />
        <Field label="Charge (US dollars)" name="autoAmount" inputMode="decimal" value={p.amount} onChange={p.onAmount} error={p.errors.amountMicros} />
        <Button type="submit" isDisabled={p.busy}>
          Save rule
        </Button>
        {rule ? (
          <Button variant="secondary" onPress={p.onRemove} isDisabled={p.busy}>
            Turn off
          </Button>
        ) : null}
      </form>
      <Notice kind="error">{p.failure}</Notice>
      <Notice kind="success">{p.saved}</Notice>
    </Card>
  );
}

export function BenchmarkCard(p: { baseline: Baseline; onChange: (key: string) => void; busy: boolean; failure: string; saved: string }) {
  return (
    <Card title="Benchmark provider">
      <div id="benchmark" />
      <p>Savings are measured against the provider you choose here. A change applies to new calls only: past calls keep the benchmark they were measured against.</p>
      <RadioGroup value={p.baseline.providerKey ?? ''} onChange={p.onChange} isDisabled={p.busy} className="radios" orientation="horizontal">
        <Label>Benchmark provider</Label>
        <div className="radio-row">
          {BRAND_CHOICES.map((b) => (
            <Radio key={b.key} value={b.key} className="radio">
              {b.brand}
            </Radio>
          ))}
        </div>
      </RadioGroup>
      {!p.baseline.providerKey ? <p className="muted">None chosen yet: savings stay hidden until you choose one.</p> : null}
      <Notice kind="error">{p.failure}</Notice>
      <Notice kind="success">{p.saved}</Notice>
    </Card>
  );
}

export function PaymentMethodCard({ wallet }: { wallet: Wallet }) {
  return (
    <Card title="Payment method">
      {wallet.paymentMethod ? (
        <p data-testid="payment-method">{wallet.paymentMethod.label}</p>
      ) : (
        <p>No saved card. The card you pay with at checkout is saved by the payment processor for automatic top-ups.</p>
      )}
      <p className="muted">Card details are entered on the payment processor’s page; Switchboard never sees or stores card numbers.</p>
    </Card>
  );
}

export function InvoicesCard({ invoices, more, onPdf, failure }: { invoices: Invoice[]; more: { hasMore: boolean; loading: boolean; onMore: () => void }; onPdf: (i: Invoice) => void; failure: string }) {
  return (
    <Card title="Invoices">
      {invoices.length === 0 ? (
        <p>No invoices yet. Each top-up gets one.</p>
      ) : (
        <table className="table" data-testid="invoices">
          <thead>
            <tr>
              <th scope="col">Invoice</th>
              <th scope="col">Date</th>
              <th scope="col" className="num">Amount</th>
              <th scope="col">PDF</th>
            </tr>
          </thead>
          <tbody>
            {invoices.map((i) => (
              <tr key={i.id}>
                <td>{i.number}</td>
                <td>{formatDay(i.issuedAt)}</td>
                <td className="num">{formatUsd(i.amountMicros)}</td>
                <td>
                  <Button variant="link" onPress={() => onPdf(i)} aria-label={`Download PDF ${i.number}`}>
                    Download PDF
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <LoadMore shown={invoices.length} what="invoices" {...more} />
      <Notice kind="error">{failure}</Notice>
    </Card>
  );
}

export function WalletLine({ wallet }: { wallet: Wallet }) {
  return (
    <p className="lead" data-testid="billing-balance">
      Balance: <strong>{formatTokens(wallet.balance)} tokens</strong> (≈ {formatUsd(wallet.balance)})
    </p>
  );
}
