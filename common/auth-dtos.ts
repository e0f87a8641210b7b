import type { UserRole } from './enums';
import type { BadgedPersonDto } from './person-dtos';

/** The signed-in user as the client sees it (`auth.me`, `auth.signIn`); never a hash or a token. */
export interface UserDto extends BadgedPersonDto {
  email: string;
  isCreator: boolean;
  role: UserRole;
}
