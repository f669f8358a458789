-- Hand-written (docs/policies.md#teams): named groups of people. A team may name a directory group
-- (LDAP DN) and an OpenID Connect group value whose members are its members, kept in step at each
-- sign-in; members added by an admin stay until an admin removes them. A person may be in several
-- teams; a manager of a team is a member with the MANAGER role.
CREATE TYPE "team_role" AS ENUM ('MEMBER', 'MANAGER');
--> statement-breakpoint
CREATE TYPE "team_member_source" AS ENUM ('ADMIN', 'LDAP', 'OIDC');
--> statement-breakpoint
CREATE TABLE "teams" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "name" text NOT NULL,
  "description" text DEFAULT '' NOT NULL,
  "ldap_group" text,
  "oidc_group" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "modified_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "teams_name_check" CHECK (length("name") BETWEEN 1 AND 100),
  CONSTRAINT "teams_description_check" CHECK (length("description") <= 1000),
  CONSTRAINT "teams_ldap_group_check" CHECK (length("ldap_group") BETWEEN 1 AND 1000),
  CONSTRAINT "teams_oidc_group_check" CHECK (length("oidc_group") BETWEEN 1 AND 200)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "teams_name_lower_key" ON "teams" (lower("name"));
--> statement-breakpoint
CREATE UNIQUE INDEX "teams_ldap_group_lower_key" ON "teams" (lower("ldap_group"));
--> statement-breakpoint
CREATE UNIQUE INDEX "teams_oidc_group_key" ON "teams" ("oidc_group");
--> statement-breakpoint
CREATE TABLE "team_members" (
  "team_id" uuid NOT NULL REFERENCES "teams"("id") ON DELETE CASCADE,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "role" "team_role" DEFAULT 'MEMBER' NOT NULL,
  "source" "team_member_source" DEFAULT 'ADMIN' NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY ("team_id", "user_id")
);
--> statement-breakpoint
CREATE INDEX "team_members_user_idx" ON "team_members" ("user_id", "team_id");
