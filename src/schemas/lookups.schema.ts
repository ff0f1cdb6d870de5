import * as z from 'zod/mini';
import { NameValueSchema } from './applications.schema.ts';

/** Labels, tags, sub-brands and products: Name/Value options (AM §3 "Label and filter option"). */
export const OptionListSchema = z.array(NameValueSchema);
export type OptionList = z.infer<typeof OptionListSchema>;

export const AssigneeOptionSchema = z.object({ Name: z.string(), Value: z.string(), Assignable: z.boolean() });
export const AssigneesResponseSchema = z.object({ Assignees: z.array(AssigneeOptionSchema) });
export type AssigneeOption = z.infer<typeof AssigneeOptionSchema>;

export const OwnerSchema = z.object({ PublicId: z.string(), DisplayName: z.string(), GlobalUserId: z.string() });
export const OwnersResponseSchema = z.object({ ApplicationOwners: z.array(OwnerSchema) });
export type Owner = z.infer<typeof OwnerSchema>;
