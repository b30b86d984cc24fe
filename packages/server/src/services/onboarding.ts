import { ConfabServerError, fieldErrors, validationError, type FieldErrors } from '../errors';
import { isUniqueViolation } from '../store/database';
import { formatTimestamp } from '../store/ids';
import type { AccountsService } from './accounts';
import type { RequestAuth, ServiceContext } from './context';
import { readString, type Body } from './input';
import { temporaryEmailDomain } from './invitations';
import { isValidEmail, passwordMaximum, registerPasswordMinimum, validateUsername } from './userValidation';

const searchLimit = 10;

/** The rest of onboarding (docs/CONTRACTS.md, Invitations and onboarding): finding people to invite, and turning a temporary account into a full one. */
export class OnboardingService {
  constructor(
    private readonly context: ServiceContext,
    private readonly accounts: AccountsService,
  ) {}

  private now(): string {
    return formatTimestamp(this.context.config.now());
  }

  async searchUsers(auth: RequestAuth, query: string) {
    this.accounts.requireUser(auth);
    const text = query.trim();
    if (text.length < 2) throw validationError('The search needs at least 2 characters.', { query: fieldErrors.minText(2) });
    const users = await this.context.store.users.search(text.slice(0, 100), searchLimit);
    return { users: users.map((user) => ({ id: user.id, username: user.username, name: user.name })) };
  }

  async completeAccount(auth: RequestAuth, body: Body) {
    const user = this.accounts.requireUser(auth);
    if (user.soft_registered !== 1 || user.signup_completed === 1) {
      throw new ConfabServerError('forbidden', 'Only temporary accounts can be completed.');
    }
    const email = readString(body, 'email')?.trim().toLowerCase() ?? '';
    const username = readString(body, 'username')?.trim();
    const password = readString(body, 'password');
    const passwordConfirm = readString(body, 'passwordConfirm');
    const errors: FieldErrors = {};
    if (email === '') {
      errors['email'] = fieldErrors.required();
    } else if (!isValidEmail(email) || email.endsWith(`@${temporaryEmailDomain}`)) {
      errors['email'] = fieldErrors.email();
    } else {
      const owner = await this.context.store.users.findByEmail(email);
      if (owner !== undefined && owner.id !== user.id) errors['email'] = fieldErrors.identityTaken('email');
    }
    await validateUsername(errors, this.context.store.users, username, { exceptId: user.id });
    if (password === undefined || password === '') {
      errors['password'] = fieldErrors.required();
    } else if (password.length < registerPasswordMinimum || password.length > passwordMaximum) {
      errors['password'] = fieldErrors.length(registerPasswordMinimum, passwordMaximum);
    }
    if (passwordConfirm !== undefined && password !== undefined && passwordConfirm !== password) errors['passwordConfirm'] = fieldErrors.mismatch();
    if (Object.keys(errors).length > 0) throw validationError('Failed to complete account.', errors);
    try {
      await this.context.store.users.update(user.id, { email, username: username ?? '', signup_completed: 1, updated: this.now() });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw validationError('Failed to complete account.', {
          username: fieldErrors.identityTaken('username'),
          email: fieldErrors.identityTaken('email'),
        });
      }
      throw error;
    }
    // New password, new token key: the client signs in again with the new credentials.
    await this.accounts.changePassword(user.id, password ?? '');
    return { message: 'Account completed successfully.' };
  }
}
