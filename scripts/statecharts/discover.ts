import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { StateMachine } from 'xstate';
import type { MachineModel } from '../../tests/machines/machine-model.ts';
import { isLabelsData, type LabelsData } from './labels.ts';

export interface LoadedModel {
  /** `<name>` of `src/machines/<name>.machine.ts`. */
  name: string;
  model: MachineModel;
  /** The machine file's `export const statechartLabels`, when it has one (`checkLabels` reports what is missing). */
  labels: LabelsData | undefined;
  /** The name the machine file exports the machine under, e.g. `sessionMachine`. */
  exportName: string;
}

const machineSuffix = '.machine.ts';

/**
 * Every `src/machines/*.machine.ts` with the model that `tests/machines/<name>.model.ts` exports.
 * A machine without a model fails the run: it would otherwise have no diagram and no tests.
 * `only` narrows the run to some machines (tests of the tooling load just the ones they read).
 */
export async function loadModels(root: string, only?: readonly string[]): Promise<LoadedModel[]> {
  const machinesDir = path.join(root, 'src/machines');
  const entries = existsSync(machinesDir) ? await readdir(machinesDir) : [];
  const names = entries
    .filter((file) => file.endsWith(machineSuffix))
    .map((file) => file.slice(0, -machineSuffix.length))
    .filter((name) => !only || only.includes(name))
    .sort();
  const modelPath = (name: string) => path.join(root, 'tests/machines', `${name}.model.ts`);
  const missing = names.filter((name) => !existsSync(modelPath(name)));
  if (missing.length) {
    const lines = missing.map(
      (name) => `  src/machines/${name}${machineSuffix} needs tests/machines/${name}.model.ts`,
    );
    throw new Error(
      `Machines without a model (default-export defineMachineModel({ ... })):\n${lines.join('\n')}`,
    );
  }
  const loaded: LoadedModel[] = [];
  for (const name of names) {
    const module: unknown = await import(pathToFileURL(modelPath(name)).href);
    const model =
      typeof module === 'object' && module !== null && 'default' in module ? module.default : undefined;
    if (!isMachineModel(model)) {
      throw new Error(
        `tests/machines/${name}.model.ts must default-export a MachineModel (defineMachineModel({ name, machine, events }))`,
      );
    }
    const machineModule: Record<string, unknown> = {
      ...(await import(pathToFileURL(path.join(machinesDir, `${name}${machineSuffix}`)).href)),
    };
    const labels = isLabelsData(machineModule.statechartLabels) ? machineModule.statechartLabels : undefined;
    const exportName =
      Object.entries(machineModule).find(
        ([, value]) => value instanceof StateMachine && value.id === model.machine.id,
      )?.[0] ?? `${name}Machine`;
    loaded.push({ name, model, labels, exportName });
  }
  return loaded;
}

function isMachineModel(value: unknown): value is MachineModel {
  return (
    typeof value === 'object' &&
    value !== null &&
    'name' in value &&
    typeof value.name === 'string' &&
    'machine' in value &&
    value.machine instanceof StateMachine &&
    'events' in value &&
    (Array.isArray(value.events) || typeof value.events === 'function')
  );
}
