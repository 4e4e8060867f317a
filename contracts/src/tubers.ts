import { Type, type Static } from '@sinclair/typebox';

/** The seven crops the product knows, in the spec's spelling and order. */
export const TUBER_TYPES = ['yam', 'cassava', 'potato', 'sweet potato', 'tumeric', 'garlic', 'ginger'] as const;
export type TuberType = (typeof TUBER_TYPES)[number];
export const TuberTypeSchema = Type.Union(TUBER_TYPES.map((t) => Type.Literal(t)));

export const USER_TYPES = ['buyer', 'farmer'] as const;
export const UserTypeSchema = Type.Union([Type.Literal('buyer'), Type.Literal('farmer')]);
export type UserType = Static<typeof UserTypeSchema>;
