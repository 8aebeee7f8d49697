/** Token check: `GET /api/0/auth/` (API.md 8.6). */
import { detail, json } from "../http.ts";
import type { Route } from "../types.ts";

/** Routes of this module. */
export const authRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/0/auth/",
    hosts: "control",
    scopes: [],
    handler: (req) => {
      const user = req.state.users.find((u) => u.id === req.token?.userId);
      if (!user || req.token?.org) return detail(401, "Invalid token");
      return json({
        ...user,
        avatarUrl: null,
        isActive: true,
        hasPasswordAuth: true,
        dateJoined: "2020-01-01T00:00:00Z",
      });
    },
  },
];
