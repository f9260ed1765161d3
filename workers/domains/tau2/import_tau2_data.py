#!/usr/bin/env python3
"""Copies τ²-Bench's retail, telecom and airline data into this folder in the form the playground ships.

Usage:  python3 workers/domains/tau2/import_tau2_data.py DATA_DIR
where DATA_DIR is a checkout's `data/tau2` (NVlabs/ToolOrchestra, or a fork: it holds
`domains/{retail,telecom}` and `user_simulator`). Standard library only (Python 3.11+ for tomllib).

What it does, and why:
  - JSON is rewritten compact (no indentation): retail's db.json is 2.8 MB as shipped and 1.3 MB
    compact, under the repository's 2 MB limit per file. Python reads and writes the numbers, so
    `100.0` stays a float and `100` an int (our loader keeps that difference, as pydantic does).
  - Telecom's TOML databases become JSON (TOML's quoted dates stay strings; pydantic and our
    loader read them as dates). TOML has no null: a missing key takes the model's default.
  - Text files (policies, the user simulator's guidelines) are copied byte for byte.
  - Airline: the tasks the paper's harness runs (`original_tasks.json`, 50 tasks; the vendored
    τ²'s run.py passes it as --task_path) and the policy. Its db.json (about 7 MB) is not shipped:
    a person reads it from their own τ²-Bench checkout or downloads it (docs/evaluation.md).
Licences: τ²-Bench (MIT, Sierra Research), ToolOrchestra (Apache-2.0); docs/data-licences.md.
"""

import json
import os
import shutil
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))


def compact(value, path):
    with open(path, 'w', encoding='utf-8') as out:
        json.dump(value, out, ensure_ascii=False, separators=(',', ':'))
        out.write('\n')


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    data = sys.argv[1]
    domains = os.path.join(data, 'domains')
    for name in ('db.json', 'tasks.json'):
        with open(os.path.join(domains, 'retail', name), encoding='utf-8') as f:
            compact(json.load(f), os.path.join(HERE, 'retail', name))
    shutil.copyfile(os.path.join(domains, 'retail', 'policy.md'), os.path.join(HERE, 'retail', 'policy.md'))
    for name in ('db', 'user_db'):
        with open(os.path.join(domains, 'telecom', f'{name}.toml'), 'rb') as f:
            compact(tomllib.load(f), os.path.join(HERE, 'telecom', f'{name}.json'))
    with open(os.path.join(domains, 'telecom', 'tasks.json'), encoding='utf-8') as f:
        compact(json.load(f), os.path.join(HERE, 'telecom', 'tasks.json'))
    for name in ('main_policy.md', 'tech_support_manual.md'):
        shutil.copyfile(os.path.join(domains, 'telecom', name), os.path.join(HERE, 'telecom', name))
    with open(os.path.join(domains, 'airline', 'original_tasks.json'), encoding='utf-8') as f:
        compact(json.load(f), os.path.join(HERE, 'airline', 'tasks.json'))
    shutil.copyfile(os.path.join(domains, 'airline', 'policy.md'), os.path.join(HERE, 'airline', 'policy.md'))
    for name in ('simulation_guidelines.md', 'simulation_guidelines_tools.md'):
        shutil.copyfile(os.path.join(data, 'user_simulator', name), os.path.join(HERE, name))


if __name__ == '__main__':
    main()
