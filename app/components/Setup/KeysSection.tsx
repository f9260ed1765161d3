import { useId, useRef, useState } from 'react';
import { setProviderKey } from '../../state/session.ts';
import { useSetupStore } from '../../state/setupStore.ts';
import { Section } from './Section.tsx';

export function KeysSection() {
  const providers = useSetupStore((state) => state.draft.providers);
  const held = useSetupStore((state) => state.keyProviders);
  const remembered = useSetupStore((state) => state.rememberedProviders);
  // The draft's providers, then any other that still holds a key (so it can be forgotten).
  const names = [...new Set([...Object.keys(providers), ...held, ...remembered])];
  return (
    <Section title="API keys" summary={held.length === 0 ? 'none set' : `${held.length} set`} problemCount={0} defaultOpen>
      <p className="setup-intro muted">
        Kept in memory for this tab and sent only to the provider’s own endpoint. Never exported or saved unless you
        choose to remember one. Leave empty for servers that need none.
      </p>
      {names.map((name) => (
        <KeyRow
          key={name}
          provider={name}
          inConfig={name in providers}
          held={held.includes(name)}
          remembered={remembered.includes(name)}
        />
      ))}
    </Section>
  );
}

function KeyRow({
  provider,
  inConfig,
  held,
  remembered,
}: {
  provider: string;
  inConfig: boolean;
  held: boolean;
  remembered: boolean;
}) {
  const id = useId();
  // The key stays in the DOM input only until it is handed over, never in React or zustand state.
  const input = useRef<HTMLInputElement>(null);
  const [remember, setRemember] = useState(false);
  const [empty, setEmpty] = useState(true);

  const submit = () => {
    const field = input.current;
    if (!field || field.value.trim() === '') return;
    setProviderKey(provider, field.value, remember);
    field.value = '';
    setEmpty(true);
    setRemember(false);
  };

  const status = held ? (remembered ? 'key set, remembered on this device' : 'key set') : remembered ? 'remembered key, loading' : 'no key';

  return (
    <div className="setup-key" role="group" aria-label={`Key for ${provider}`}>
      <div className="setup-key-head">
        <span className="setup-key-provider">
          {provider}
          {!inConfig && <span className="muted"> (not in this config)</span>}
        </span>
        <span className={held ? 'setup-key-status is-set' : 'setup-key-status muted'} aria-live="polite">{status}</span>
        {(held || remembered) && (
          <button type="button" aria-label={`Forget the key for ${provider}`} onClick={() => setProviderKey(provider, null, false)}>
            Forget
          </button>
        )}
      </div>
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
          onChange={(event) => setEmpty(event.target.value.trim() === '')}
          onKeyDown={(event) => {
            if (event.key === 'Enter') submit();
          }}
        />
        <button type="button" onClick={submit} disabled={empty} aria-label={`Set key for ${provider}`}>
          Set key
        </button>
      </div>
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
    </div>
  );
}
