import type { StateMachine } from 'xstate';

/**
 * Words for the people who read a machine without reading its code: analysts (the diagrams in
 * docs/statecharts) and QA (the path plans). Every machine file exports, next to its machine,
 *
 *   export const statechartLabels = { purpose, spec, actors, guards, delays, events } satisfies MachineLabels<typeof xMachine>;
 *
 * The keys are typed from the machine itself, so a name the machine declares without a description
 * is a type error, and a description of a name it no longer has is one too (excess property).
 * `npm run statecharts` checks the rest at run time (names only known then, such as spawned
 * children) and fails naming the machine and the missing item. The literal is plain data, so
 * bundles that import only the machine drop it.
 */

/** An actor (a `setup({ actors })` entry, or a child spawned under another id). */
export interface ActorLabel {
  /** What it does, in the present tense: 'Loads the claims, display name and e-mail'. */
  does: string;
  /** The transition label when it finishes: 'account loaded'. Default: '<does> — done'. */
  done?: string;
  /** The transition label when it fails: 'account could not be loaded'. Default: '<does> — failed'. */
  failed?: string;
}

type MachineParts<M> =
  M extends StateMachine<
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- only the four parts below are read
    any,
    infer TEvent,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    any,
    infer TActor,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    any,
    infer TGuard,
    infer TDelay,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    any,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    any,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    any,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    any,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    any,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    any,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    any,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    any
  >
    ? {
        events: TEvent extends { type: infer T extends string } ? T : never;
        actors: TActor extends { src: infer S extends string } ? S : never;
        guards: TGuard extends { type: infer T extends string } ? T : never;
        delays: TDelay;
      }
    : never;

/** A record of every name: required when the machine names at least one, left out when it names none. */
type Described<Key extends string, Name extends string, Value> = [Name] extends [never]
  ? { [K in Key]?: Record<never, Value> }
  : string extends Name
    ? { [K in Key]?: Record<string, Value> }
    : { [K in Key]: Record<Name, Value> };

export type MachineLabels<M> = {
  /** One sentence: what the workflow is for, as the index shows it. */
  purpose: string;
  /** The spec sections it implements: 'AM §4', 'SUV §2'. */
  spec: readonly string[];
  /**
   * Children spawned under an id that is not an actor's name (`spawnChild('downloadDocument',
   * { id: 'download' })`): their `xstate.done.actor.download` needs words too.
   */
  children?: Record<string, ActorLabel>;
} & Described<'actors', MachineParts<M>['actors'], ActorLabel> &
  /** The condition in words, read after 'if': 'a session exists'. */
  Described<'guards', MachineParts<M>['guards'], string> &
  /** What the wait is: 'the token lifetime + 2 s'; a number of milliseconds is printed as 'after 5 s'. */
  Described<'delays', MachineParts<M>['delays'], string> &
  /** What happened, as a person would say it: 'Log Out chosen', 'a new token arrived'. */
  Described<'events', MachineParts<M>['events'], string>;
