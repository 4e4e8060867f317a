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
}
