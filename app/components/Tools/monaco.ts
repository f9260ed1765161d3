// Monaco, served from the app (no CDN), with only what the tool editor uses: the core editor, a
// set of editing features, JSON with its language service (in its own worker) and JavaScript
// highlighting. Imported only by MonacoField.tsx, which the panel loads lazily, so none of this
// is in the first-load bundle.

import * as monaco from 'monaco-editor/editor';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/cursorUndo/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/format/register';
import 'monaco-editor/features/gotoError/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/indentation/register';
import 'monaco-editor/features/linesOperations/register';
import 'monaco-editor/features/multicursor/register';
import 'monaco-editor/features/quickHelp/register';
import 'monaco-editor/features/suggest/register';
import 'monaco-editor/features/toggleTabFocusMode/register';
import 'monaco-editor/features/wordOperations/register';
import 'monaco-editor/languages/definitions/javascript/register';
import JsonWorker from 'monaco-editor/languages/features/json/json.worker?worker';
import { jsonDefaults } from 'monaco-editor/languages/features/json/register';
import { TOOL_PARAMETERS_META_SCHEMA } from '../../../workers/engine/toolSchema.ts';

self.MonacoEnvironment = {
  getWorker: (_workerId: string, label: string) => (label === 'json' ? new JsonWorker() : new EditorWorker()),
};

/** The model URI of the parameters editor: the JSON schema below applies to it alone. */
export const PARAMETERS_MODEL_URI = 'inmemory://orchestra-tools/parameters.json';

/** What a tool's parameters may be, for Monaco's own squiggles and completions as you type: the
 * engine's meta-schema, with the root's own rules. The authority is checkToolParameters (the same
 * meta-schema, checked by the engine's schema library, with its own messages listed under the editor). */
const TOOL_PARAMETERS_EDITOR_SCHEMA = {
  $defs: TOOL_PARAMETERS_META_SCHEMA.$defs,
  allOf: [
    { $ref: TOOL_PARAMETERS_META_SCHEMA.$ref },
    {
      type: 'object',
      required: ['type', 'properties'],
      properties: {
        type: { const: 'object', description: 'A tool takes its arguments by name: always "object".' },
        properties: { description: 'Each argument by name, with its own schema.' },
        required: { description: 'The arguments every call must give.' },
      },
    },
  ],
};

jsonDefaults.setDiagnosticsOptions({
  validate: true,
  allowComments: false,
  trailingCommas: 'error',
  enableSchemaRequest: false,
  schemaValidation: 'error',
  schemas: [{ uri: 'inmemory://orchestra-tools/tool-parameters.schema.json', fileMatch: [PARAMETERS_MODEL_URI], schema: TOOL_PARAMETERS_EDITOR_SCHEMA }],
});

export { monaco };
