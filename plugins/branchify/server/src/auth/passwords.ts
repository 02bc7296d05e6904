import bcrypt from 'bcryptjs';

const ROUNDS = 10;
// Compared against when the account does not exist, so a login takes as long either way.
const DUMMY_HASH = bcrypt.hashSync('branchify-timing-equaliser', ROUNDS);

export const hashPassword = (plain: string): Promise<string> => bcrypt.hash(plain, ROUNDS);

export const verifyPassword = async (plain: string, hash: string | null | undefined): Promise<boolean> => {
  if (!hash) {
    await bcrypt.compare(plain, DUMMY_HASH);
    return false;
  }
  return bcrypt.compare(plain, hash);
};
