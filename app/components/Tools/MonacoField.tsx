import { useEffect, useRef } from 'react';
import { monaco, PARAMETERS_MODEL_URI } from './monaco.ts';

export interface MonacoFieldProps {
  /** The text the editor starts with; it owns the text from then on. */
  value: string;
  onChange(value: string): void;
  language: 'json' | 'javascript';
  /** The accessible name of the editor's text area. */
  ariaLabel: string;
  /** The id of the element that lists this field's problems. */
  describedBy?: string;
}

const darkScheme = () => window.matchMedia('(prefers-color-scheme: dark)').matches;

/** One Monaco editor over its own model; loaded lazily (default export for React.lazy). */
export default function MonacoField({ value, onChange, language, ariaLabel, describedBy }: MonacoFieldProps) {
  const host = useRef<HTMLDivElement>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    // The JSON editor's URI is the one Monaco's tool-parameters schema applies to.
    const uri = language === 'json' ? monaco.Uri.parse(PARAMETERS_MODEL_URI) : undefined;
    const model = monaco.editor.createModel(value, language, uri);
    const editor = monaco.editor.create(element, {
      model,
      ariaLabel,
      automaticLayout: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      lineNumbersMinChars: 3,
      tabSize: 2,
      fontSize: 13,
      wordWrap: 'on',
      // Suggestions only when asked for (Ctrl+Space): popping up on every quote and word, they
      // took over typed text; Enter always starts a new line.
      quickSuggestions: false,
      suggestOnTriggerCharacters: false,
      wordBasedSuggestions: 'off',
      acceptSuggestionOnEnter: 'off',
      fixedOverflowWidgets: true,
      theme: darkScheme() ? 'vs-dark' : 'vs',
    });
    // Monaco names its input element (ariaLabel) but has no option to describe it: point it at the
    // hint and problems here. It is an EditContext element, or a textarea where that is off.
    const input = element.querySelector('[aria-roledescription="editor"], textarea');
    if (input && describedBy) input.setAttribute('aria-describedby', describedBy);
    const subscription = model.onDidChangeContent(() => onChangeRef.current(model.getValue()));
    const scheme = window.matchMedia('(prefers-color-scheme: dark)');
    const onScheme = () => monaco.editor.setTheme(scheme.matches ? 'vs-dark' : 'vs');
    scheme.addEventListener('change', onScheme);
    return () => {
      scheme.removeEventListener('change', onScheme);
      subscription.dispose();
      editor.dispose();
      model.dispose();
    };
    // Created once, from the initial value: typing runs ahead of React, so feeding `value` back in
    // would undo keys typed since. Another tool gets a new editor (its parent is keyed by tool).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return <div ref={host} className={`monaco-host monaco-${language}`} />;
}
