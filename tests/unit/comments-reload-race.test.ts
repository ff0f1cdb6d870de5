import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { applicationCommentsMachine } from '../../src/machines/application-comments.machine.ts';
import type { ApplicationComment } from '../../src/schemas/application-detail.schema.ts';

const older: ApplicationComment = { CommentId: 1, UserDisplayName: 'Avery Admin', CommentTimestamp: 1_760_000_000, Comment: 'Checked' };
const added: ApplicationComment = { CommentId: 2, UserDisplayName: 'Avery Admin', CommentTimestamp: 1_760_000_100, Comment: 'Added elsewhere' };

/**
 * A refetch of the detail (Refresh, or a colleague's change announced live: issue 42) reads the
 * comments again while the card stays open. A save that overtakes that read answers every comment,
 * the new one included; the read begun before it must not overwrite that answer afterwards.
 */
describe('the comments card when a reload and a save overlap', () => {
  it('keeps the saved comment when the reload begun before the save answers after it', async () => {
    const reads: ((comments: ApplicationComment[]) => void)[] = [];
    const actor = createActor(
      applicationCommentsMachine.provide({
        actors: {
          loadComments: fromPromise<ApplicationComment[], { applicationId: string }>(() => new Promise((resolve) => reads.push(resolve))),
          saveComment: fromPromise<ApplicationComment[], { applicationId: string; comment: string }>(async () => [added, older]),
        },
        // No detail around it to reload its feed.
        actions: { announceSaved: () => undefined },
      }),
      { input: { applicationId: '1042', claims: ['comments.view', 'comment.add'] } },
    ).start();
    actor.send({ type: 'comments.load' });
    reads[0]?.([older]);
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    // The detail refetched: a reload is under way when the person saves.
    actor.send({ type: 'comments.load' });
    expect(reads).toHaveLength(2);
    actor.send({ type: 'comment.change', text: 'Added elsewhere' });
    actor.send({ type: 'comment.submit' });
    await waitFor(actor, (snapshot) => snapshot.matches('editing') && snapshot.context.comments.length === 2);
    // The stale read answers last, without the new comment.
    reads[1]?.([older]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().context.comments).toEqual([added, older]);
    actor.stop();
  });
});
