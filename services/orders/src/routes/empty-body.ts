// The body of a POST or PUT that takes none: `{}` or nothing at all, and no field besides.
import { Type } from '@sinclair/typebox';

export const EmptyBody = Type.Object({}, { additionalProperties: false });

/** A request sent without a body (the front ends' client sends none for `read`, a ticket, a block) is taken as `{}`. */
export const bodyOrEmpty = async (request: { body: unknown }) => {
  request.body ??= {};
};
