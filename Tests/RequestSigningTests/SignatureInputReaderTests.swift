import Foundation
import HTTPTypes
import ServiceCore
import Testing

@testable import RequestSigning

/// What the signer writes is read where it lies, without the parser.
struct SignatureInputReaderTests {
    @Test func theSignersFieldsAreReadAsReceived() throws {
        for request in [Fixtures.getRequest(), Fixtures.postRequest()] {
            let field = try #require(try Fixtures.signer().sign(request).headers["Signature-Input"])
            let read = field.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
                withUnsafeTemporaryAllocation(of: SignatureInputReader.Item.self, capacity: 32) { items in
                    withUnsafeTemporaryAllocation(of: SignatureInputReader.Parameter.self, capacity: 8) { parameters in
                        var itemCount = 0
                        var parameterCount = 0
                        return SignatureInputReader.read(
                            bytes, valueStart: 5, mode: .received, limits: .default, items: items,
                            itemCount: &itemCount, parameters: parameters, parameterCount: &parameterCount)
                            && itemCount >= 4 && parameterCount == 6
                    }
                }
            }
            #expect(read == true, "\(field)")
        }
    }
}
