import type { RunnerTask, RunnerTestFile } from 'vitest';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * A vitest reporter for the mutation runs: when a test file's own `beforeAll` fails (a mutant that
 * stops the server from being built, such as an empty route path or a fractional body limit),
 * vitest marks its tests skipped, and Stryker's vitest runner (9.5, 9.6) reads a skipped test at the top
 * of a file as not run: the mutant "survived" with no test run. This marks those tests failed with
 * the file's error, as they would be in a person's run (`describe`-level hooks Stryker handles).
 * A mutant that makes a module throw at import (an `Intl.DateTimeFormat` option emptied) leaves its
 * test file with no tests at all; the file then gets one failed test, "the file loads", as a
 * person's run fails such a file.
 */
export default class FailedSetupFailsItsTests implements Reporter {
  onTestModuleEnd(testModule: TestModule) {
    // The raw task tree, which Stryker's runner reads (ctx.state); TestModule's public view is read-only.
    const file = (testModule as unknown as { task: RunnerTestFile }).task;
    const errors = file.result?.errors;
    // Its beforeAll failed if the file has errors and none of its tests ran; an afterAll that fails
    // after tests ran is no reason to fail them.
    if (!errors?.length || testsOf(file).some((test) => test.result?.state === 'pass' || test.result?.state === 'fail')) return;
    const fail = (task: RunnerTask) => {
      if (task.type === 'test' && task.result?.state !== 'fail') {
        task.mode = 'run';
        task.result = { ...task.result, state: 'fail', errors };
      }
      if ('tasks' in task) task.tasks.forEach(fail);
    };
    file.tasks.forEach(fail);
    if (file.tasks.length === 0) file.tasks.push(failedLoad(file, errors));
  }
}

function failedLoad(file: RunnerTestFile, errors: NonNullable<RunnerTestFile['result']>['errors']): RunnerTask {
  return {
    type: 'test',
    id: `${file.id}_load`,
    name: 'the file loads',
    fullName: `${file.name} the file loads`,
    mode: 'run',
    file,
    context: undefined as never,
    annotations: [],
    artifacts: [],
    timeout: 0,
    result: { state: 'fail', errors },
  } as unknown as RunnerTask;
}

function testsOf(task: RunnerTask): RunnerTask[] {
  return 'tasks' in task ? task.tasks.flatMap(testsOf) : [task];
}
