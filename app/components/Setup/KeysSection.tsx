import { useId, useRef, useState } from 'react';
import { providerOrigin, type HeldKey } from '../../../workers/hosts/keys.ts';
import { keyedProviders } from './providerKinds.ts';
import { Section } from './Section.tsx';
import { useSession, useSetupStore } from '../../state/context.tsx';

/** A held key whose provider now points at another origin than the one the key was entered for. */
function heldBack(held: HeldKey | undefined, origin: string | undefined): boolean {
  return held !== undefined && origin !== undefined && held.origin !== origin;
}

export function KeysSection() {
  const providers = useSetupStore((state) => state.draft.providers);
  const held = useSetupStore((state) => state.heldKeys);
  const remembered = useSetupStore((state) => state.rememberedProviders);
  // The draft's providers whose kind takes a key (one whose models run here needs none), then any
  // other that still holds a key (so it can be forgotten).
  const keyed = keyedProviders(providers);
  const names = [...new Set([...keyed, ...held.map((key) => key.provider), ...remembered])];
  const originOf = (name: string) => (Object.hasOwn(providers, name) ? providerOrigin(providers[name]) : undefined);
  const heldOf = (name: string) => held.find((key) => key.provider === name);
  const heldBackCount = names.filter((name) => heldBack(heldOf(name), originOf(name))).length;
  const summary = held.length === 0 ? 'none set' : `${held.length} set${heldBackCount > 0 ? `, ${heldBackCount} held back` : ''}`;
  return (
    <Section title="API keys" summary={summary} problemCount={heldBackCount} defaultOpen>
      <p className="setup-intro muted">
        Kept in memory for this tab and sent only to the address it was entered for. Never exported or saved unless you
        choose to remember one. Leave empty for servers that need none.
      </p>
      {names.map((name) => (
        <KeyRow
          key={name}
          provider={name}
          inConfig={keyed.includes(name)}
          origin={originOf(name)}
          held={heldOf(name)}
          remembered={remembered.includes(name)}
        />
      ))}
    </Section>
  );
}

function KeyRow({
  provider,
  inConfig,
  origin,
  held,
  remembered,
}: {
  provider: string;
  inConfig: boolean;
  /** Where the config sends this provider's requests now. */
  origin: string | undefined;
  held: HeldKey | undefined;
  remembered: boolean;
}) {
  const session = useSession();
  const isHeldBack = heldBack(held, origin);
  const status = held
    ? isHeldBack
      ? 'key held back'
      : remembered
        ? 'key set, remembered on this device'
        : 'key set'
    : remembered
      ? 'remembered key, loading'
      : 'no key';

  return (
    <div className="setup-key" role="group" aria-label={`Key for ${provider}`}>
      <div className="setup-key-head">
        <span className="setup-key-provider">
          {provider}
          {!inConfig && <span className="muted"> (not in this config)</span>}
        </span>
        <span className={held && !isHeldBack ? 'setup-key-status is-set' : 'setup-key-status muted'} aria-live="polite">
          {status}
        </span>
        {(held || remembered) && (
          <button type="button" aria-label={`Forget the key for ${provider}`} onClick={() => session.setProviderKey(provider, null, false)}>
            Forget
          </button>
        )}
      </div>
      {held && !isHeldBack && held.origin && <p className="setup-key-origin muted">Sent only to {held.origin}</p>}
      {held && isHeldBack && origin && <HeldBackWarning provider={provider} held={held} origin={origin} />}
      {inConfig ? <KeyEntry provider={provider} held={held !== undefined} /> : null}
    </div>
  );
}

/** A key entered for another address than the one the provider sends to now: held back until
 * the person agrees. */
function HeldBackWarning({ provider, held, origin }: { provider: string; held: HeldKey; origin: string }) {
  const session = useSession();
  return (
    <div className="setup-warning setup-key-held-back" role="alert">
      <p>
        {held.origin === null
          ? 'This key was remembered on this device before keys were tied to an address'
          : `This key was entered for ${held.origin}`}
        , and <strong>{provider}</strong> now sends its requests to <strong>{origin}</strong>. The key is not sent
        there unless you say so.
      </p>
      <button type="button" onClick={() => session.bindKeyToOrigin(provider, held.origin, origin)}>
        Use it with {origin}
      </button>{' '}
      <span className="muted">or enter another key below, or forget it.</span>
    </div>
  );
}

/** Where a key is typed (never kept in React state), and whether it is remembered on this device. */
function KeyEntry({ provider, held }: { provider: string; held: boolean }) {
  const session = useSession();
  const id = useId();
  // The key stays in the DOM input only until it is handed over, never in React or zustand state.
  const input = useRef<HTMLInputElement>(null);
  const [remember, setRemember] = useState(false);
  const [empty, setEmpty] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    const field = input.current;
    if (!field || field.value.trim() === '') return;
    const refused = session.setProviderKey(provider, field.value, remember);
    setProblem(refused);
    if (refused) return;
    field.value = '';
    setEmpty(true);
    setRemember(false);
  };

  return (
    <>
      <label className="visually-hidden" htmlFor={`${id}-key`}>
        API key for {provider}
      </label>
      <div className="setup-key-entry">
        <input
          ref={input}
          id={`${id}-key`}
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={held ? 'Replace the key' : 'Paste the key'}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => setEmpty(event.target.value.trim() === '')}
          onKeyDown={(event) => {
            if (event.key === 'Enter') submit();
          }}
        />
        <button type="button" onClick={submit} disabled={empty} aria-label={`Set key for ${provider}`}>
          Set key
        </button>
      </div>
      {problem && (
        <p id={`${id}-problem`} className="setup-field-problems" role="alert">
          {problem}
        </p>
      )}
      <label className="setup-checkbox">
        <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.target.checked)} />
        Remember on this device
      </label>
      {remember && (
        <p className="setup-warning" role="note">
          A remembered key is stored unencrypted in this browser: anyone with access to this browser profile can read
          it. Use it only on a device you alone use.
        </p>
      )}
    </>
  );
}
