/** A backing service (PostgreSQL, Redis) did not answer; the message is one printable line saying how to get it. */
export class ServiceUnreachable extends Error {}
