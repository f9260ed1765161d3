import type { ConfigDraft } from '../../state/setupStore.ts';
import { REFERENCE_PRICING } from '../../../workers/engine/pricing.ts';
import {
  clearModelPrice,
  localDate,
  parseNumberInput,
  priceRows,
  problemsUnder,
  setModelPrice,
  setPricingField,
  type PriceField,
  type PriceRow,
} from './draftEdits.ts';
import { useEditDraft } from './editDraft.ts';
import { Field } from './Field.tsx';
import { Section } from './Section.tsx';
import { useSetupStore } from '../../state/context.tsx';

const PRICE_COLUMNS: Array<{ field: PriceField; heading: string; name: string }> = [
  { field: 'inputPerM', heading: 'Input', name: 'input' },
  { field: 'outputPerM', heading: 'Output', name: 'output' },
  { field: 'cachedInputPerM', heading: 'Cached', name: 'cached input' },
];

const SOURCE_LABELS: Record<PriceRow['source'], string> = {
  config: 'this config',
  reference: 'reference table',
  unknown: 'price unknown',
};

const today = () => localDate(new Date());

export function PricingSection({ problems }: { problems: readonly string[] }) {
  const editDraft = useEditDraft();
  const draft = useSetupStore((state) => state.draft);
  const pricing = draft.pricing;
  const rows = priceRows(draft, REFERENCE_PRICING);
  const unknown = rows.filter((row) => row.source === 'unknown').length;
  const reference = `the reference table as of ${REFERENCE_PRICING.asOf} (${REFERENCE_PRICING.source})`;
  return (
    <Section
      title="Prices"
      summary={`as of ${pricing?.asOf || REFERENCE_PRICING.asOf}${unknown > 0 ? `, ${unknown} unknown` : ''}`}
      problemCount={problemsUnder(problems, 'pricing').length}
    >
      <p className="setup-intro muted">
        US dollars per million tokens, for the models this config calls. An unknown price is reported as unknown,
        never as $0.
      </p>
      {pricing ? (
        <>
          <Field label="Prices as of" problems={problemsUnder(problems, 'pricing.asOf', true)} hint={`Laid over ${reference}.`}>
            {(control) => (
              <input
                {...control}
                type="date"
                value={pricing.asOf}
                onChange={(event) => editDraft((draft) => setPricingField(draft, { asOf: event.target.value }, today()))}
              />
            )}
          </Field>
        </>
      ) : (
        <p>
          Using {reference}. Changing a price adds this config’s own table, dated today.
        </p>
      )}
      <table className="setup-table setup-prices">
        <caption className="visually-hidden">Prices per million tokens by model</caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            {PRICE_COLUMNS.map((column) => (
              <th key={column.field} scope="col">
                {column.heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <PriceTableRow key={row.model} row={row} problems={problemsUnder(problems, `pricing.models.${row.model}`)} />
          ))}
        </tbody>
      </table>
      <p className="setup-hint muted">An empty cached price means cached tokens cost the input price.</p>
      <Rates pricing={pricing} problems={problems} />
    </Section>
  );
}

function PriceTableRow({ row, problems }: { row: PriceRow; problems: string[] }) {
  const editDraft = useEditDraft();
  return (
    <>
      <tr>
        <th scope="row">
          <span className="setup-model">{row.model}</span>
          <span className={row.source === 'unknown' ? 'setup-price-source is-unknown' : 'setup-price-source muted'}>
            {SOURCE_LABELS[row.source]}
          </span>
          {row.source === 'config' && (
            <button
              type="button"
              className="setup-link"
              aria-label={`Drop this config's price for ${row.model}`}
              onClick={() => editDraft((draft) => clearModelPrice(draft, row.model))}
            >
              drop
            </button>
          )}
        </th>
        {PRICE_COLUMNS.map((column) => (
          <td key={column.field}>
            <input
              type="number"
              min={0}
              step="any"
              className="setup-price"
              aria-label={`${row.model} ${column.name} price, $ per million tokens`}
              aria-invalid={problems.length > 0 || undefined}
              value={row.price?.[column.field] ?? ''}
              placeholder={column.field === 'cachedInputPerM' && row.price ? '' : 'unknown'}
              onChange={(event) =>
                editDraft((draft) =>
                  setModelPrice(draft, REFERENCE_PRICING, row.model, column.field, parseNumberInput(event.target.value), today()),
                )
              }
            />
          </td>
        ))}
      </tr>
      {problems.length > 0 && (
        <tr>
          <td colSpan={4} className="setup-field-problems">
            {problems.join('; ')}
          </td>
        </tr>
      )}
    </>
  );
}

/** What code and web search cost, beside the models' prices. */
function Rates({ pricing, problems }: { pricing: ConfigDraft['pricing']; problems: readonly string[] }) {
  return (
    <div className="setup-rates">
      <RateField label="Code, $ per second" field="codePerSecond" pricing={pricing} problems={problems} />
      <RateField label="Web search, $ per call" hint="The local corpus used here costs nothing." field="searchPerCall" pricing={pricing} problems={problems} />
    </div>
  );
}

interface RateFieldProps {
  label: string;
  hint?: string;
  field: 'codePerSecond' | 'searchPerCall';
  pricing: ConfigDraft['pricing'];
  problems: readonly string[];
}

function RateField({ label, hint, field, pricing, problems }: RateFieldProps) {
  const editDraft = useEditDraft();
  return (
    <Field label={label} {...(hint ? { hint } : {})} problems={problemsUnder(problems, `pricing.${field}`, true)}>
      {(control) => (
        <input
          {...control}
          type="number"
          min={0}
          step="any"
          className="setup-number"
          value={pricing?.[field] ?? ''}
          placeholder={String(REFERENCE_PRICING[field])}
          onChange={(event) => editDraft((draft) => setPricingField(draft, { [field]: parseNumberInput(event.target.value) }, today()))}
        />
      )}
    </Field>
  );
}
