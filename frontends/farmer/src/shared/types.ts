// Answers of the profile service the farmer pages read (docs/api.md, GET /api/profile/me).
export interface FarmerProfile {
  user_id: string;
  user_type: 'buyer' | 'farmer';
  email: string;
  firstname: string;
  lastname: string;
  phone: string;
  business_name?: string;
  location?: string;
  tuber?: string[];
  /** Proven by an SMS code (issue 26); absent from profile services before it. */
  phone_verified?: boolean;
  /** New-request alerts by SMS too (issue 26). */
  sms_alerts?: boolean;
}
