import { errors } from '@strapi/utils';
import { confineApiTokens } from '../../plugins/branchify/server/src/integrator/token-scope';
import type { Strapi } from '../../plugins/branchify/server/src/utils/strapi';

type Verify = (state: unknown, config?: unknown) => unknown;

/** Strapi's auth service as the route's authorise step calls it, with what it was asked to check. */
const confined = () => {
  const checked: unknown[] = [];
  const auth: { verify: Verify } = { verify: (_state, config) => void checked.push(config) };
  confineApiTokens({ get: () => auth } as unknown as Strapi);
  return { verify: auth.verify, checked };
};
const apiToken = (type: string, strategy = 'content-api-token') => ({ strategy: { name: strategy }, credentials: { type } });

describe('API tokens are confined to the integrator API', () => {
  it.each(['full-access', 'read-only', 'custom'])("a %s token is refused every action that is not the integrator API's", (type) => {
    const { verify, checked } = confined();
    for (const config of [
      { scope: ['plugin::upload.content-api.upload'] },
      { scope: ['plugin::upload.content-api.find'] },
      { scope: 'plugin::email.email.send' },
      { scope: ['plugin::content-type-builder.content-types.getContentTypes'] },
      { scope: ['plugin::branchify.plan.find', 'plugin::upload.content-api.destroy'] },
      { scope: [] },
      {},
      undefined,
    ]) {
      expect(() => verify(apiToken(type), config)).toThrow(errors.ForbiddenError);
    }
    expect(() => verify(apiToken(type, 'api-token'), { scope: ['plugin::upload.content-api.find'] })).toThrow(errors.ForbiddenError);
    expect(checked).toEqual([]);
  });

  it("hands the integrator API's actions on to Strapi's own check, and other credentials untouched", () => {
    const { verify, checked } = confined();
    verify(apiToken('read-only'), { scope: ['plugin::branchify.plan.find'] });
    verify(apiToken('full-access'), { scope: ['plugin::branchify.subscription.cancel'] });
    verify(apiToken('full-access'), { scope: ['plugin::branchify.integrator-user.findOne'] });
    verify({ strategy: { name: 'users-permissions' } }, { scope: ['plugin::upload.content-api.find'] });
    verify(undefined, false);
    expect(checked).toEqual([
      { scope: ['plugin::branchify.plan.find'] },
      { scope: ['plugin::branchify.subscription.cancel'] },
      { scope: ['plugin::branchify.integrator-user.findOne'] },
      { scope: ['plugin::upload.content-api.find'] },
      false,
    ]);
  });
});
