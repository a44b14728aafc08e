/// What a mapping may name (issue 52): SPEC §2's fields per record kind, the fields whose
/// values are a closed vocabulary, the fields that hold instants, and the column names and
/// value spellings teams' own exports use for them, which `map --suggest` recognises.
enum MappedVocabulary {
    /// The fields of `kind`, in SPEC §2's order, and which of them are required.
    static func fields(of kind: RecordKind) -> [(name: String, required: Bool)] {
        switch kind {
        case .customers:
            let required: Set<CustomerField> = [.customerID, .platform]
            return CustomerField.allCases.map { ($0.name, required.contains($0)) }
        case .transactions:
            let required: Set<TransactionField> = [
                .transactionID, .customerID, .productID, .productType, .purchaseDate,
            ]
            return TransactionField.allCases.map { ($0.name, required.contains($0)) }
        case .sales, .evidence: return []
        }
    }

    /// The canonical values of a field with a closed vocabulary; `nil` for any other field.
    static func values(of field: String) -> [String]? {
        switch field {
        case "platform": return Platform.allCases.map(\.rawValue)
        case "product_type": return ProductType.allCases.map(\.rawValue)
        case "environment": return Environment.allCases.map(\.rawValue)
        case "ownership_type": return OwnershipType.allCases.map(\.rawValue)
        case "renewal_state": return RenewalState.allCases.map(\.rawValue)
        default: return nil
        }
    }

    /// The fields that hold an instant.
    static let instants: Set<String> = [
        "original_purchase_date", "preorder_date", "purchase_date", "expires_date", "revocation_date",
        "grace_period_expires_date",
    ]

    /// A column name or value as compared: lowercased ASCII letters and digits only, so that
    /// `User ID`, `user_id`, `userId` and `user-id` are one name.
    static func folded(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.compactMap { scalar in
                    switch scalar {
                    case "a"..."z", "0"..."9": return scalar
                    case "A"..."Z": return Unicode.Scalar(scalar.value + 32)
                    default: return nil
                    }
                }))
    }

    /// Column names teams give each field, best first (folded, `folded(_:)`). The field's own
    /// name is always the best.
    static let synonyms: [String: [String]] = [
        "customer_id": [
            "userid", "uid", "appuserid", "accountid", "customer", "user", "memberid", "subscriberid",
            "originalappuserid", "clientid", "buyerid",
        ],
        "platform": ["os", "device", "deviceplatform", "deviceos", "osname", "store", "devicetype", "source"],
        "original_app_version": [
            "appversion", "originalversion", "firstversion", "initialversion", "firstappversion", "version",
        ],
        "original_purchase_date": [
            "firstpurchasedate", "firstpurchasedat", "originalpurchasedat", "apppurchasedate", "installedat",
            "installdate", "firstseenat", "firstseen", "downloadedat", "signupdate", "createdat",
        ],
        "environment": ["env", "issandbox", "sandbox", "istest", "test"],
        "preorder_date": ["preorderedat", "preorderdateat", "preorderedon"],
        "storefront": ["country", "countrycode", "storecountry", "region", "market"],
        "transaction_id": [
            "txnid", "transaction", "orderid", "purchaseid", "receiptid", "paymentid", "chargeid", "id",
        ],
        "original_transaction_id": [
            "originaltxnid", "originalorderid", "originalpurchaseid", "subscriptionid", "subscription",
        ],
        "product_id": ["sku", "product", "productidentifier", "itemid", "item", "planid", "plan", "productcode"],
        "product_type": ["type", "purchasetype", "producttypes", "productkind", "kind", "itemtype", "plantype"],
        "purchase_date": [
            "purchasedat", "createdat", "boughtat", "purchasetime", "transactiondate", "purchasedon",
            "transactedat", "paidat", "chargedat", "date", "timestamp",
        ],
        "expires_date": [
            "expiresat", "expirationdate", "expirydate", "expireson", "validuntil", "expirationat", "expiry",
            "expiresdate", "periodend", "endsat",
        ],
        "revocation_date": ["revokedat", "refundedat", "refunddate", "revokedon", "refundedon", "voidedat"],
        "ownership_type": ["ownership", "familyshared", "isfamilyshared", "sharing"],
        "price": ["amount", "pricepaid", "revenue", "priceinpurchasedcurrency", "grossamount", "total"],
        "currency": ["currencycode", "pricecurrency", "curr"],
        "renewal_state": [
            "status", "subscriptionstatus", "state", "renewalstatus", "subscriptionstate", "autorenewstatus",
        ],
        "grace_period_expires_date": [
            "graceperiodexpiresat", "graceuntil", "graceperiodend", "graceperiodendsat", "graceexpiresat",
        ],
    ]

    /// Spellings of each vocabulary's values (folded), to the canonical value. Spellings that
    /// could mean two values (`apple`: iOS or macOS?) are left out: the draft asks instead.
    static let spellings: [String: [String: String]] = [
        "platform": [
            "iphone": "ios", "iphoneos": "ios", "ios": "ios", "ipad": "ipados", "ipados": "ipados", "mac": "macos",
            "macos": "macos", "osx": "macos", "macosx": "macos", "appletv": "tvos", "tvos": "tvos", "watch": "watchos",
            "applewatch": "watchos", "watchos": "watchos", "visionpro": "visionos", "visionos": "visionos",
            "xros": "visionos", "android": "android", "googleplay": "android", "playstore": "android",
            "web": "web", "browser": "web", "stripe": "web", "amazon": "amazon", "amazonappstore": "amazon",
            "kindle": "amazon", "fireos": "amazon",
        ],
        "product_type": [
            "autorenewable": "auto_renewable", "autorenewing": "auto_renewable", "subscription": "auto_renewable",
            "sub": "auto_renewable", "renewable": "auto_renewable", "recurring": "auto_renewable",
            "autorenewablesubscription": "auto_renewable", "nonrenewing": "non_renewing",
            "nonrenewingsubscription": "non_renewing", "seasonpass": "non_renewing", "fixedterm": "non_renewing",
            "nonconsumable": "non_consumable", "lifetime": "non_consumable", "onetime": "non_consumable",
            "onetimepurchase": "non_consumable", "permanent": "non_consumable", "unlock": "non_consumable",
            "consumable": "consumable", "credits": "consumable", "coins": "consumable", "tokens": "consumable",
        ],
        "environment": [
            "production": "production", "prod": "production", "live": "production", "release": "production",
            "sandbox": "sandbox", "test": "sandbox", "testing": "sandbox", "dev": "sandbox",
            "development": "sandbox", "staging": "sandbox", "xcode": "sandbox",
        ],
        "ownership_type": [
            "purchased": "purchased", "purchase": "purchased", "owner": "purchased", "own": "purchased",
            "familyshared": "family_shared", "family": "family_shared", "familysharing": "family_shared",
            "shared": "family_shared",
        ],
        "renewal_state": [
            "subscribed": "subscribed", "active": "subscribed", "renewing": "subscribed", "autorenewon": "subscribed",
            "expired": "expired", "lapsed": "expired", "cancelled": "expired", "canceled": "expired",
            "ended": "expired", "inactive": "expired", "inbillingretry": "in_billing_retry",
            "billingretry": "in_billing_retry", "billingissue": "in_billing_retry", "pastdue": "in_billing_retry",
            "retrying": "in_billing_retry", "ingraceperiod": "in_grace_period", "grace": "in_grace_period",
            "graceperiod": "in_grace_period", "revoked": "revoked", "refunded": "revoked",
        ],
    ]

    /// A yes-or-no column's values for the fields a flag stands for (`is_sandbox: true`).
    static let flags: [String: (yes: String, no: String)] = [
        "environment": ("sandbox", "production"), "ownership_type": ("family_shared", "purchased"),
    ]
    static let yes: Set<String> = ["true", "1", "yes", "y", "t"]
    static let no: Set<String> = ["false", "0", "no", "n", "f"]
}
