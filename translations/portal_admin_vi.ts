<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="vi_VN">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/about.py" line="+76"/>
        <location line="+2"/>
        <source>Third-party notices</source>
        <translation>Thông báo bên thứ ba</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This copy was not built with its third-party notices: they are written when the installers are built (packaging/build.py).</source>
        <translation>Bản này được dựng mà không kèm thông báo của bên thứ ba: các thông báo được tạo khi dựng bộ cài đặt (packaging/build.py).</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>About System Portal Admin</source>
        <extracomment>&quot;&quot; while the key is read; None: it can be neither read nor made. Where the key is kept (``keys.KeyPlace``), once read.</extracomment>
        <translation>Giới thiệu System Portal Admin</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System Portal Admin</source>
        <translation>System Portal Admin</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Version %1</source>
        <translation>Phiên bản %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Desktop administration for the System Portal, with a built-in sandbox server.</source>
        <translation>Công cụ quản trị System Portal trên máy tính, kèm máy chủ sandbox tích hợp.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Licensed under the %1 (%2).</source>
        <translation>Được cấp phép theo %1 (%2).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Third-party notices…</source>
        <translation>Thông báo của bên thứ ba…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Qt %1 (PySide6 %2), Python %3</source>
        <translation>Qt %1 (PySide6 %2), Python %3</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Version</source>
        <translation>Phiên bản</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Qt and Python versions</source>
        <translation>Phiên bản Qt và Python</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Evidence signing key: reading…</source>
        <translation>Khóa ký bằng chứng: đang đọc…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Evidence signing key: none (it can be neither read nor made on this computer)</source>
        <translation>Khóa ký bằng chứng: không có (trên máy tính này không đọc được cũng không tạo được)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Evidence signing key: %1</source>
        <translation>Khóa ký bằng chứng: %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Kept in the key file %1, readable by you only (this computer has no usable keyring).</source>
        <translation>Được lưu trong tệp khóa %1, chỉ bạn đọc được (máy tính này không có keyring dùng được).</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Kept in the system keyring.</source>
        <translation>Được lưu trong keyring của hệ thống.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Evidence signing key fingerprint</source>
        <translation>Dấu vân tay của khóa ký bằng chứng</translation>
    </message>
</context>
<context>
    <name>AccountColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_model.py" line="+28"/>
        <source>Email</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/account_model.py:23)</translatorcomment>
        <translation>Email</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Name</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/account_model.py:25)</translatorcomment>
        <translation>Tên</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Status</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/account_model.py:27)</translatorcomment>
        <translation>Trạng thái</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Portal</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/account_model.py:29)</translatorcomment>
        <translation>Cổng</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Phone</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/account_model.py:31)</translatorcomment>
        <translation>Điện thoại</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Language</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/account_model.py:32)</translatorcomment>
        <translation>Ngôn ngữ</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Time zone</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/account_model.py:34)</translatorcomment>
        <translation>Múi giờ</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Country</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/account_model.py:36)</translatorcomment>
        <translation>Quốc gia</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Created</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/account_model.py:38)</translatorcomment>
        <translation>Ngày tạo</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Updated</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/account_model.py:40)</translatorcomment>
        <translation>Ngày cập nhật</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Id</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/account_model.py:42)</translatorcomment>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>AccountFilters</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_filter_bar.py" line="+34"/>
        <location line="+112"/>
        <source>Any portal</source>
        <extracomment>How long typing must pause before the list is queried again.</extracomment>
        <translation>Mọi cổng</translation>
    </message>
    <message>
        <location line="-108"/>
        <location line="+109"/>
        <source>Any status</source>
        <translation>Mọi trạng thái</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>E&amp;mail:</source>
        <translation>E&amp;mail:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Name:</source>
        <translation>Tê&amp;n:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Institution:</source>
        <translation>Tổ c&amp;hức:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Portal:</source>
        <translation>&amp;Cổng:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;tatus:</source>
        <translation>&amp;Trạng thái:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Starts with…</source>
        <translation>Bắt đầu bằng…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A word of the name…</source>
        <translation>Một từ trong tên…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Institution id</source>
        <translation>ID tổ chức</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Clear filters</source>
        <translation>Xóa bộ lọc</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter by email</source>
        <translation>Lọc theo email</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter by name</source>
        <translation>Lọc theo tên</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter by institution id</source>
        <translation>Lọc theo ID tổ chức</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter by portal</source>
        <translation>Lọc theo cổng</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter by status</source>
        <translation>Lọc theo trạng thái</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Clear every filter</source>
        <translation>Xóa mọi bộ lọc</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Account filters</source>
        <translation>Bộ lọc tài khoản</translation>
    </message>
</context>
<context>
    <name>AccountsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_text.py" line="+16"/>
        <source>Activate</source>
        <extracomment>Status actions in display order, with the button text and the confirm button text.</extracomment>
        <translation>Kích hoạt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activate account</source>
        <translation>Kích hoạt tài khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activate the account %1? It can sign in again afterwards.</source>
        <translation>Kích hoạt tài khoản %1? Sau đó tài khoản có thể đăng nhập lại.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Suspend</source>
        <translation>Tạm ngưng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend account</source>
        <translation>Tạm ngưng tài khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend the account %1? It is signed out and cannot sign in until it is activated again.</source>
        <translation>Tạm ngưng tài khoản %1? Tài khoản sẽ bị đăng xuất và không thể đăng nhập cho tới khi được kích hoạt lại.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Deactivate</source>
        <translation>Vô hiệu hóa</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate account</source>
        <translation>Vô hiệu hóa tài khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate the account %1? It is signed out and cannot sign in until it is activated again.</source>
        <translation>Vô hiệu hóa tài khoản %1? Tài khoản sẽ bị đăng xuất và không thể đăng nhập cho tới khi được kích hoạt lại.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The account %1 was activated.</source>
        <extracomment>What a status action did, said as a sentence naming the account.</extracomment>
        <translation>Đã kích hoạt tài khoản %1.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The account %1 was suspended.</source>
        <translation>Đã tạm ngưng tài khoản %1.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The account %1 was deactivated.</source>
        <translation>Đã vô hiệu hóa tài khoản %1.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The status of the account %1 was changed.</source>
        <translation>Đã đổi trạng thái của tài khoản %1.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+213"/>
        <source>Choose an account to see its details.</source>
        <translation>Chọn một tài khoản để xem chi tiết.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Id:</source>
        <translation>ID:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy id</source>
        <translation>Sao chép ID</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Copy the account id to the clipboard</source>
        <translation>Sao chép ID tài khoản vào bộ nhớ tạm</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy the account id</source>
        <translation>Sao chép ID tài khoản</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Account id</source>
        <translation>ID tài khoản</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Email:</source>
        <translation>Email:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name:</source>
        <translation>Tên:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status:</source>
        <translation>Trạng thái:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal:</source>
        <translation>Cổng:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phone:</source>
        <translation>Điện thoại:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remark:</source>
        <translation>Ghi chú:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language:</source>
        <translation>Ngôn ngữ:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone:</source>
        <translation>Múi giờ:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country:</source>
        <translation>Quốc gia:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution:</source>
        <translation>Tổ chức:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created:</source>
        <translation>Ngày tạo:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Updated:</source>
        <translation>Cập nhật:</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Edit…</source>
        <translation>Sửa…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Edit the account</source>
        <translation>Sửa tài khoản</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Reset password…</source>
        <translation>Đặt lại mật khẩu…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Send a password reset link</source>
        <translation>Gửi liên kết đặt lại mật khẩu</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Account</source>
        <translation>Tài khoản</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Why actions are unavailable</source>
        <translation>Lý do không thể thực hiện thao tác</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No account chosen</source>
        <translation>Chưa chọn tài khoản</translation>
    </message>
    <message>
        <location line="-44"/>
        <location line="+46"/>
        <source>Account details</source>
        <translation>Chi tiết tài khoản</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_text.py" line="+18"/>
        <source>“%1” &lt;%2&gt;</source>
        <translation>“%1” &lt;%2&gt;</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+208"/>
        <source>You cannot change the status of your own account.</source>
        <extracomment>The account the detail shows (None: nothing chosen). ErrorInfo of a failure to show in the panel. A translated success text. Filter choices arrived: (portal pairs, status pairs). The panel: it keeps the tasks and knows what the signed-in account may do. The edit dialog while it is open (tests and screenshots look at it).</extracomment>
        <translation>Bạn không thể thay đổi trạng thái tài khoản của chính mình.</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>Could not change the status of %1</source>
        <translation>Không thể thay đổi trạng thái của %1</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Reset password</source>
        <translation>Đặt lại mật khẩu</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Send a password reset link to the account %1? It is mailed to %2.</source>
        <translation>Gửi liên kết đặt lại mật khẩu cho tài khoản %1? Liên kết sẽ được gửi tới %2.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Send reset link</source>
        <translation>Gửi liên kết</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Could not reset the password of %1</source>
        <translation>Không thể đặt lại mật khẩu của %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A password reset link was mailed to %1.</source>
        <translation>Đã gửi liên kết đặt lại mật khẩu tới %1.</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>The account %1 was saved.</source>
        <translation>Đã lưu tài khoản %1.</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Name</source>
        <translation>Tên</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phone</source>
        <translation>Điện thoại</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+185"/>
        <source>Remark</source>
        <translation>Ghi chú</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>Ngôn ngữ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>Múi giờ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translation>Quốc gia</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1: %2 → %3</source>
        <translation>%1: %2 → %3</translation>
    </message>
    <message>
        <location line="+9"/>
        <location line="+9"/>
        <source>Save changes</source>
        <translation>Lưu thay đổi</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Save these changes to the account %1?</source>
        <translation>Lưu các thay đổi này cho tài khoản %1?</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Could not save the account %1</source>
        <translation>Không thể lưu tài khoản %1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_panel.py" line="+188"/>
        <source>There are no accounts yet.</source>
        <extracomment>Initial column widths (the person can resize; hidden columns keep the default). Shown, the controller starts loading (``controller.start()``).</extracomment>
        <translation>Chưa có tài khoản nào.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No accounts match these filters.</source>
        <translation>Không có tài khoản nào khớp với bộ lọc này.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Open by id:</source>
        <translation>Mở theo &amp;ID:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Account id, e.g. ACC…</source>
        <translation>ID tài khoản, ví dụ ACC…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Account id to open</source>
        <translation>ID tài khoản cần mở</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open</source>
        <translation>Mở</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open the account with this id</source>
        <translation>Mở tài khoản có ID này</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Accounts</source>
        <translation>Tài khoản</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="-41"/>
        <source>The name is required.</source>
        <extracomment>Field key -&gt; (client keyword, account attribute).</extracomment>
        <translation>Tên là bắt buộc.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing has changed.</source>
        <translation>Không có gì thay đổi.</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Edit account</source>
        <translation>Sửa tài khoản</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edit the account %1</source>
        <translation>Sửa tài khoản %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Name:</source>
        <translation>&amp;Tên:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account name</source>
        <translation>Tên tài khoản</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Phone:</source>
        <translation>&amp;Số điện thoại:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phone number</source>
        <translation>Số điện thoại</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Remark:</source>
        <translation>&amp;Ghi chú:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Language:</source>
        <translation>&amp;Ngôn ngữ:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Default language</source>
        <translation>Ngôn ngữ mặc định</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Time zone:</source>
        <translation>&amp;Múi giờ:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Default time zone</source>
        <translation>Múi giờ mặc định</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Country:</source>
        <translation>&amp;Quốc gia:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Default country</source>
        <translation>Quốc gia mặc định</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Type to search; a code not in the list is sent as typed</source>
        <translation>Gõ để tìm; mã không có trong danh sách sẽ được gửi nguyên văn</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Type to search, e.g. Tokyo or UTC+9</source>
        <translation>Gõ để tìm, ví dụ Tokyo hoặc UTC+9</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Type to search, e.g. Japan or JP</source>
        <translation>Gõ để tìm, ví dụ Japan hoặc JP</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Save the changes</source>
        <translation>Lưu các thay đổi</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+130"/>
        <source>Cancel</source>
        <translation>Hủy</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Account being edited</source>
        <translation>Tài khoản đang sửa</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="-23"/>
        <source>Status: %1 → %2</source>
        <extracomment>The server accepts a reason of at most this many characters.</extracomment>
        <translation>Trạng thái: %1 → %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This changes the %1 server “%2”.</source>
        <translation>Thao tác này thay đổi máy chủ %1 “%2”.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Reason (optional):</source>
        <translation>&amp;Lý do (không bắt buộc):</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Why, for the audit trail</source>
        <translation>Lý do, để ghi vào nhật ký kiểm toán</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Reason for the status change</source>
        <translation>Lý do thay đổi trạng thái</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Question</source>
        <translation>Câu hỏi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status change</source>
        <translation>Thay đổi trạng thái</translation>
    </message>
</context>
<context>
    <name>AdminErrors</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/common.py" line="+21"/>
        <source>The server refused: your role does not allow this action. Ask a workspace owner for the permission.</source>
        <extracomment>Clearer summaries for the codes these panels meet (per-panel overrides win).</extracomment>
        <translation>Máy chủ từ chối: vai trò của bạn không cho phép thao tác này. Hãy xin quyền từ chủ sở hữu không gian làm việc.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not found: the item does not exist (any more), or the id is wrong.</source>
        <translation>Không tìm thấy: mục này không (còn) tồn tại, hoặc ID không đúng.</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+3"/>
        <source>The server did not accept the input. Check the fields and try again.</source>
        <translation>Máy chủ không chấp nhận dữ liệu nhập. Hãy kiểm tra các trường rồi thử lại.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your sign-in is no longer valid (code 4010). Sign in again.</source>
        <translation>Phiên đăng nhập của bạn không còn hiệu lực (mã 4010). Hãy đăng nhập lại.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>You are not signed in. Sign in again.</source>
        <translation>Bạn chưa đăng nhập. Hãy đăng nhập lại.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Not found (code 4040).</source>
        <translation>Không tìm thấy (mã 4040).</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+33"/>
        <source>The server did not accept the portal (code 4000): a portal type and a domain without spaces are required; domain and remark have at most 255 characters each.</source>
        <extracomment>Domain and remark limits (section 8).</extracomment>
        <translation>Máy chủ không chấp nhận cổng (mã 4000): cần có loại cổng và tên miền không chứa dấu cách; tên miền và ghi chú mỗi trường tối đa 255 ký tự.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server did not accept the portal: a portal type and a domain without spaces are required; domain and remark have at most 255 characters each.</source>
        <translation>Máy chủ không chấp nhận cổng: cần có loại cổng và tên miền không chứa dấu cách; tên miền và ghi chú mỗi trường tối đa 255 ký tự.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The institution was not found (code 4040). Check the institution id, or leave it empty to use your own institution.</source>
        <translation>Không tìm thấy tổ chức (mã 4040). Hãy kiểm tra ID tổ chức, hoặc để trống để dùng tổ chức của bạn.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="+28"/>
        <source>The server refused: the OWNER role is protected and can never be deleted.</source>
        <extracomment>The 409 answers of role deletion, explained.</extracomment>
        <translation>Máy chủ từ chối: vai trò OWNER được bảo vệ và không bao giờ có thể xóa.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server refused: the role still has members. Give them another role first, then delete it.</source>
        <translation>Máy chủ từ chối: vai trò vẫn còn thành viên. Hãy gán vai trò khác cho họ trước, rồi xóa.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The role does not exist any more: someone else deleted it.</source>
        <translation>Vai trò không còn tồn tại: người khác đã xóa nó.</translation>
    </message>
</context>
<context>
    <name>BackupCodesDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/backup_codes.py" line="+116"/>
        <source>System Portal backup codes (each works once)</source>
        <extracomment>The codes being written (``save_to``, started by the file dialog).</extracomment>
        <translation>Mã dự phòng System Portal (mỗi mã dùng được một lần)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Copied to the clipboard.</source>
        <translation>Đã sao chép vào bộ nhớ tạm.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Save backup codes</source>
        <translation>Lưu mã dự phòng</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Text files (*.txt)</source>
        <translation>Tệp văn bản (*.txt)</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Could not save the file: %1</source>
        <translation>Không thể lưu tệp: %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Saved to %1 (readable by you only).</source>
        <translation>Đã lưu vào %1 (chỉ bạn đọc được).</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>New backup codes</source>
        <translation>Mã dự phòng mới</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep these codes somewhere safe. Each code signs you in once when you cannot use your other methods. They are shown only now: after you close this window they cannot be shown again. Your previous codes no longer work.</source>
        <translation>Hãy cất giữ các mã này ở nơi an toàn. Mỗi mã giúp bạn đăng nhập một lần khi không dùng được các phương thức khác. Các mã chỉ hiển thị lúc này: sau khi đóng cửa sổ, chúng không thể hiển thị lại. Các mã trước đây của bạn không còn hiệu lực.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Copy</source>
        <translation>&amp;Sao chép</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy the codes</source>
        <translation>Sao chép các mã</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Save…</source>
        <translation>&amp;Lưu…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save the codes to a file</source>
        <translation>Lưu các mã vào tệp</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Backup codes</source>
        <translation>Mã dự phòng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>Trạng thái</translation>
    </message>
</context>
<context>
    <name>BulkButton</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/menu.py" line="+49"/>
        <source>Bulk changes</source>
        <translation>Thay đổi hàng loạt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change many rows at once</source>
        <translation>Thay đổi nhiều dòng cùng lúc</translation>
    </message>
</context>
<context>
    <name>BulkDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+192"/>
        <source>Lists (*.csv *.txt);;All files (*)</source>
        <extracomment>The bulk windows open now, by job id (the Jobs panel shows a running one again). What a job run in this program changed, besides its area (``OperationRunner.publish``): the Jobs panel reads the job files again on it, and on no other topic. The actions each panel offers. &quot;accounts&quot; or &quot;invitations&quot;. The selected rows&apos; records (``Account`` or ``Invitation``). The account filter&apos;s query arguments (accounts), for &quot;all matching&quot;. How many rows match the filter, when known.</extracomment>
        <translation>Danh sách (*.csv *.txt);;Mọi tệp (*)</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+293"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location line="-283"/>
        <source>Imported %1</source>
        <translation>Đã nhập %1</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Enter the new value.</source>
        <translation>Nhập giá trị mới.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Planning…</source>
        <translation>Đang lập kế hoạch…</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>This session is read-only: no bulk change can be planned.</source>
        <translation>Phiên này chỉ đọc: không thể lập kế hoạch thay đổi hàng loạt.</translation>
    </message>
    <message>
        <location line="+104"/>
        <source>This job is being run by another window or program.</source>
        <translation>Công việc này đang được chạy bởi một cửa sổ hoặc chương trình khác.</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 of %2: %3 done, %4 failed, %5 skipped, %6 unknown</source>
        <translation>%1 trên %2: %3 xong, %4 thất bại, %5 bỏ qua, %6 chưa rõ kết quả</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Waiting %1 s, then reading back %2 targets whose outcome is unknown (the server may still be applying them)</source>
        <translation>Chờ %1 giây rồi đọc lại %2 đối tượng chưa rõ kết quả (máy chủ có thể vẫn đang áp dụng các thay đổi)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 per second, about %2 s left</source>
        <translation>%1 mỗi giây, còn khoảng %2 giây</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Resume</source>
        <translation>Tiếp tục</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+137"/>
        <source>Pause</source>
        <translation>Tạm dừng</translation>
    </message>
    <message>
        <location line="-97"/>
        <source>CSV files (*.csv)</source>
        <translation>Tệp CSV (*.csv)</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Line %1: %2</source>
        <translation>Dòng %1: %2</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Bulk change: %1</source>
        <translation>Thay đổi hàng loạt: %1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+136"/>
        <source>Suspend</source>
        <translation>Tạm ngưng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activate</source>
        <translation>Kích hoạt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate</source>
        <translation>Vô hiệu hóa</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Default language</source>
        <translation>Ngôn ngữ mặc định</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>Múi giờ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translation>Quốc gia</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remark</source>
        <translation>Ghi chú</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Action:</source>
        <translation>&amp;Thao tác:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;New status:</source>
        <translation>Trạng thái &amp;mới:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Field:</source>
        <translation>Trườn&amp;g:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Value:</source>
        <translation>Giá t&amp;rị:</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_plan.py" line="+411"/>
        <source>&amp;Reason:</source>
        <translation>&amp;Lý do:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Message:</source>
        <translation>Lời &amp;nhắn:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Expires after (days):</source>
        <translation>&amp;Hết hạn sau (ngày):</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>e.g. ja, Asia/Tokyo, JP</source>
        <translation>ví dụ ja, Asia/Tokyo, JP</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_plan.py" line="+2"/>
        <source>Optional; kept with the change</source>
        <translation>Không bắt buộc; được lưu cùng thay đổi</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Targets:</source>
        <translation>Đối tượng:</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+7"/>
        <source>The %1 selected rows</source>
        <translation>%1 dòng đã chọn</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>All %1 accounts matching the current filter</source>
        <translation>Tất cả %1 tài khoản khớp bộ lọc hiện tại</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>All accounts matching the current filter</source>
        <translation>Tất cả tài khoản khớp bộ lọc hiện tại</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Every pending invitation</source>
        <translation>Mọi lời mời đang chờ</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+2"/>
        <source>created at least this many days ago:</source>
        <translation>được tạo cách đây ít nhất số ngày:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A list of emails or ids (paste it or import a CSV)</source>
        <translation>Danh sách email hoặc ID (dán vào hoặc nhập tệp CSV)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>One email or id per line, or CSV with an email or id column</source>
        <translation>Mỗi dòng một email hoặc ID, hoặc CSV có cột email hoặc id</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Emails or ids</source>
        <translation>Email hoặc ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Import a file…</source>
        <translation>Nhậ&amp;p tệp…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+3"/>
        <source>&amp;Plan (dry run)</source>
        <translation>Lập &amp;kế hoạch (chạy thử)</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+1"/>
        <location line="+122"/>
        <source>Close</source>
        <translation>Đóng</translation>
    </message>
    <message>
        <location line="-66"/>
        <source>&amp;Export the plan…</source>
        <translation>&amp;Xuất kế hoạch…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Requests at once:</source>
        <translation>Số &amp;yêu cầu cùng lúc:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Back</source>
        <translation>&amp;Quay lại</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+3"/>
        <source>&amp;Run on %1 targets</source>
        <translation>&amp;Chạy trên %1 đối tượng</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+1"/>
        <source>The plan</source>
        <translation>Kế hoạch</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every target with what the change would do to it</source>
        <translation>Từng đối tượng và điều thay đổi sẽ làm với nó</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Targets and their results</source>
        <translation>Các đối tượng và kết quả</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+9"/>
        <source>Nothing has been sent. %1 targets will change; skipped: %2</source>
        <translation>Chưa gửi gì. Sẽ thay đổi %1 đối tượng; bỏ qua: %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>none</source>
        <translation>không có</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+2"/>
        <source>&amp;Cancel the job</source>
        <translation>Hủy công &amp;việc</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Save the result…</source>
        <translation>Lư&amp;u kết quả…</translation>
    </message>
</context>
<context>
    <name>BulkPlan</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/plan_model.py" line="+26"/>
        <source>Target</source>
        <translation>Đối tượng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>Trước</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New</source>
        <translation>Mới</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>Trạng thái</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason or error</source>
        <translation>Lý do hoặc lỗi</translation>
    </message>
</context>
<context>
    <name>BulkWords</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/words.py" line="+12"/>
        <source>The signed-in account itself</source>
        <translation>Chính tài khoản đang đăng nhập</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Already has the new value</source>
        <translation>Đã có giá trị mới</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Its current status does not allow this</source>
        <translation>Trạng thái hiện tại không cho phép</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not found</source>
        <translation>Không tìm thấy</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Listed more than once</source>
        <translation>Được liệt kê nhiều lần</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Already accepted, declined, expired or cancelled</source>
        <translation>Đã được chấp nhận, từ chối, hết hạn hoặc hủy</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A pending invitation exists</source>
        <translation>Đã có lời mời đang chờ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Neither an email nor an id</source>
        <translation>Không phải email cũng không phải ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The expiry is not 1 to 365 whole days</source>
        <translation>Thời hạn không phải số ngày nguyên từ 1 đến 365</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The file is not UTF-8 text.</source>
        <translation>Tệp không phải văn bản UTF-8.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The file is too large (64 MiB at most).</source>
        <translation>Tệp quá lớn (tối đa 64 MiB).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The list has more than 200,000 lines.</source>
        <translation>Danh sách có hơn 200.000 dòng.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No column is named email or id.</source>
        <translation>Không có cột nào tên email hoặc id.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The CSV cannot be read (an unclosed quote?).</source>
        <translation>Không đọc được CSV (thiếu dấu ngoặc kép đóng?).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The list names nothing.</source>
        <translation>Danh sách trống.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Planned</source>
        <translation>Đã lên kế hoạch</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skipped</source>
        <translation>Bỏ qua</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Being sent</source>
        <translation>Đang gửi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Done</source>
        <translation>Xong</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>Thất bại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown outcome</source>
        <translation>Chưa rõ kết quả</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelled</source>
        <translation>Đã hủy</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Running</source>
        <translation>Đang chạy</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paused</source>
        <translation>Tạm dừng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Finished</source>
        <translation>Đã hoàn tất</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Interrupted</source>
        <translation>Bị gián đoạn</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Paused.</source>
        <translation>Đã tạm dừng.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paused: the server cannot be reached. Nothing is lost; resume when it is.</source>
        <translation>Đã tạm dừng: không kết nối được máy chủ. Không mất dữ liệu nào; hãy tiếp tục khi kết nối lại.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Paused: the sign-in has ended.</source>
        <translation>Đã tạm dừng: phiên đăng nhập đã kết thúc.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paused: the program stopped the job.</source>
        <translation>Đã tạm dừng: chương trình đã dừng công việc.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Change status</source>
        <translation>Đổi trạng thái</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset passwords</source>
        <translation>Đặt lại mật khẩu</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set a field</source>
        <translation>Đặt một trường</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invite</source>
        <translation>Mời</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel invitations</source>
        <translation>Hủy lời mời</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revert</source>
        <translation>Hoàn nguyên</translation>
    </message>
</context>
<context>
    <name>CampaignConfirm</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/confirmations.py" line="+23"/>
        <source>Items still undecided: %n. Sign off anyway?</source>
        <translation>Số mục chưa quyết định: %n. Vẫn ký xác nhận?</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Signing off freezes the file: the undecided items stay undecided for good, shown as not reviewed in the evidence pack, and no one can decide them in this file. Every decision made is frozen as it is.</source>
        <translation>Ký xác nhận sẽ đóng băng tệp: các mục chưa quyết định sẽ mãi mãi chưa quyết định, hiển thị là “chưa rà soát” trong gói bằng chứng, và không ai có thể quyết định chúng trong tệp này nữa. Mọi quyết định đã đưa ra được đóng băng như hiện tại.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Sign off with %n undecided</source>
        <translation>Ký xác nhận với %n mục chưa quyết định</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Every item is decided. Sign off?</source>
        <translation>Mọi mục đã được quyết định. Ký xác nhận?</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signing off freezes every decision of the file as it is: no one can change them in this file afterwards.</source>
        <translation>Ký xác nhận sẽ đóng băng mọi quyết định của tệp như hiện tại: sau đó không ai có thể thay đổi chúng trong tệp này.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sign off</source>
        <translation>Ký xác nhận</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sign off “%1”</source>
        <translation>Ký xác nhận “%1”</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Signed-off Revokes not carried out: %n. Close the campaign anyway?</source>
        <translation>Số quyết định Thu hồi đã ký xác nhận nhưng chưa thực hiện: %n. Vẫn đóng đợt rà soát?</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Close with %n not carried out</source>
        <translation>Đóng với %n mục chưa thực hiện</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Close the campaign?</source>
        <translation>Đóng đợt rà soát?</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close the campaign</source>
        <translation>Đóng đợt rà soát</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Closing takes a snapshot of the server, checks every decision against it and makes every decision final. Remediation is no longer possible from this campaign: a Revoke not carried out by then stays not done, and the closing check says so.</source>
        <translation>Khi đóng, chương trình chụp ảnh nhanh máy chủ, đối chiếu mọi quyết định với ảnh đó và làm cho mọi quyết định trở thành cuối cùng. Sau đó không thể khắc phục từ đợt rà soát này nữa: một quyết định Thu hồi chưa được thực hiện lúc đó sẽ mãi chưa thực hiện, và phần kiểm tra khi đóng sẽ ghi rõ điều đó.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Close “%1”</source>
        <translation>Đóng “%1”</translation>
    </message>
</context>
<context>
    <name>CampaignCreate</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/create_dialog.py" line="+116"/>
        <source>There is no snapshot yet: take one in Snapshots first.</source>
        <translation>Chưa có ảnh chụp nào: hãy chụp một ảnh trong mục Ảnh chụp trước.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Give the campaign a name.</source>
        <translation>Hãy đặt tên cho đợt rà soát.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>New access-review campaign</source>
        <translation>Đợt rà soát quyền truy cập mới</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Snapshot:</source>
        <translation>Ảnh &amp;chụp:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Name:</source>
        <translation>Tê&amp;n:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Due:</source>
        <translation>&amp;Hạn:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Revoke by:</source>
        <translation>Thu &amp;hồi bằng cách:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;File:</source>
        <translation>&amp;Tệp:</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Suspending the account</source>
        <translation>Tạm ngưng tài khoản</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Deactivating the account</source>
        <translation>Vô hiệu hóa tài khoản</translation>
    </message>
</context>
<context>
    <name>CampaignIdentity</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/identity.py" line="+52"/>
        <source>No key: this computer has no usable keyring to decide with.</source>
        <translation>Không có khóa: máy tính này không có kho khóa dùng được để quyết định.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reading this installation&apos;s key…</source>
        <translation>Đang đọc khóa của bản cài đặt này…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (signed in), with this installation&apos;s key %2</source>
        <translation>%1 (đã đăng nhập), với khóa của bản cài đặt này %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>This installation&apos;s key %1 (not signed in)</source>
        <translation>Khóa của bản cài đặt này %1 (chưa đăng nhập)</translation>
    </message>
</context>
<context>
    <name>CampaignRemediation</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/remediation_dialog.py" line="+45"/>
        <source>Reviewer</source>
        <translation>Người rà soát</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trust</source>
        <translation>Độ tin cậy</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed in as</source>
        <translation>Đăng nhập với tư cách</translation>
    </message>
    <message>
        <location line="+135"/>
        <source>Remediate “%1”</source>
        <extracomment>Plan the remediation (every signer trusted). The trusted keys changed: check the sign-offs again.</extracomment>
        <translation>Khắc phục “%1”</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Nothing in this campaign is signed off: there is nothing to remediate.</source>
        <translation>Chưa có gì trong đợt rà soát này được ký xác nhận: không có gì để khắc phục.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The campaign changed since it was signed off: it is not remediated. Verify names what changed.</source>
        <translation>Đợt rà soát đã bị thay đổi sau khi ký xác nhận: không khắc phục. “Xác minh” sẽ chỉ ra những gì đã thay đổi.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Remediation is refused until every signer&apos;s key is trusted here; not trusted: %n. Compare each fingerprint with the reviewer&apos;s by another channel (in person or by telephone), then trust the key.</source>
        <translation>Việc khắc phục bị từ chối cho đến khi khóa của mọi người ký được tin cậy tại đây; chưa tin cậy: %n. Hãy đối chiếu từng dấu vân tay với của người rà soát qua một kênh khác (gặp trực tiếp hoặc qua điện thoại), rồi tin cậy khóa.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A sign-off was made by an earlier version of the program and does not cover the revocation action: the reviewer signs off again with this version.</source>
        <translation>Có một lần ký xác nhận được thực hiện bằng phiên bản cũ của chương trình và không bao gồm hành động thu hồi: người rà soát cần ký xác nhận lại bằng phiên bản này.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Separation of duties: you are one of the reviewers of what this remediation carries out. Another administrator should run it.</source>
        <translation>Phân tách nhiệm vụ: bạn là một trong những người rà soát nội dung mà lần khắc phục này thực hiện. Nên để quản trị viên khác chạy.</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>The signed-off Revokes are carried out as a bulk job, planned from each account&apos;s state now. Check who signed off first: compare each key&apos;s fingerprint with the one the reviewer gave you by another channel.</source>
        <translation>Các quyết định Thu hồi đã ký xác nhận được thực hiện dưới dạng một tác vụ hàng loạt, lập kế hoạch từ trạng thái hiện tại của từng tài khoản. Trước tiên hãy kiểm tra ai đã ký: đối chiếu dấu vân tay của từng khóa với dấu vân tay người rà soát đã gửi bạn qua một kênh khác.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Sign-offs</source>
        <translation>Các lần ký xác nhận</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Copy</source>
        <translation>&amp;Sao chép</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy the fingerprint</source>
        <translation>Sao chép dấu vân tay</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Key &amp;fingerprint:</source>
        <translation>&amp;Dấu vân tay khóa:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Trust this key…</source>
        <translation>&amp;Tin cậy khóa này…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Trusted &amp;keys…</source>
        <translation>&amp;Khóa tin cậy…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Plan the remediation</source>
        <translation>&amp;Lập kế hoạch khắc phục</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Separation of duties</source>
        <translation>Phân tách nhiệm vụ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Why remediation is refused</source>
        <translation>Lý do từ chối khắc phục</translation>
    </message>
</context>
<context>
    <name>CampaignSigners</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/signers.py" line="+17"/>
        <source>This installation&apos;s key</source>
        <translation>Khóa của bản cài đặt này</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trusted as “%1”</source>
        <translation>Được tin cậy với tên “%1”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The key given for this check</source>
        <translation>Khóa được chỉ định cho lần kiểm tra này</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not trusted by this installation</source>
        <translation>Bản cài đặt này không tin cậy</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 decided %2 of these Revokes with this installation&apos;s key.</source>
        <translation>%1 đã quyết định %2 trong số các quyết định Thu hồi này bằng khóa của bản cài đặt này.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 decided %2 of these Revokes as your server account.</source>
        <translation>%1 đã quyết định %2 trong số các quyết định Thu hồi này bằng tài khoản máy chủ của bạn.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Signed items name sign-off %1, which this file does not have: they count as signed by nobody.</source>
        <extracomment>What a verification found, by the engine&apos;s code (``%1``, ``%2``: its parameters).</extracomment>
        <translation>Các mục đã ký trỏ tới lần ký xác nhận %1 mà tệp này không có: chúng được coi là chưa ai ký.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>decided by its own account: %1</source>
        <translation>được quyết định bởi chính tài khoản đó: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the sign-off by %1 of %2 does not verify: it was changed</source>
        <translation>lần ký xác nhận của %1 lúc %2 không xác minh được: đã bị thay đổi</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the sign-off by %1 was made with another key (%2)</source>
        <translation>lần ký xác nhận của %1 được thực hiện bằng một khóa khác (%2)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>changed: %1</source>
        <translation>đã thay đổi: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed: %1</source>
        <translation>đã bị xóa: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>added: %1</source>
        <translation>đã được thêm: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its decision in the queue is not the history&apos;s: %1</source>
        <translation>quyết định trong hàng đợi khác với lịch sử: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>… and %1 more items</source>
        <translation>… và %1 mục khác</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 (account %2)</source>
        <translation>%1 (tài khoản %2)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Not signed in</source>
        <translation>Chưa đăng nhập</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 (%2), key %3: %4</source>
        <translation>%1 (%2), khóa %3: %4</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 signed off with this installation&apos;s key.</source>
        <translation>%1 đã ký xác nhận bằng khóa của bản cài đặt này.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 signed off as your server account.</source>
        <translation>%1 đã ký xác nhận bằng tài khoản máy chủ của bạn.</translation>
    </message>
</context>
<context>
    <name>Campaigns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="+16"/>
        <source>All items</source>
        <translation>Tất cả mục</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undecided</source>
        <translation>Chưa quyết định</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Flagged</source>
        <translation>Có cờ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept</source>
        <translation>Đã giữ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revoked</source>
        <translation>Đã thu hồi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Don&apos;t know</source>
        <translation>Không rõ</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="+24"/>
        <source>%1 carries triggers, views, tables or indexes this program never puts in a campaign. It was refused: they could change decisions behind your back. Ask for the file again from its owner.</source>
        <translation>%1 chứa trigger, view, bảng hoặc chỉ mục mà chương trình này không bao giờ đưa vào một đợt rà soát. Tệp đã bị từ chối: chúng có thể thay đổi quyết định sau lưng bạn. Hãy xin lại tệp từ chủ sở hữu.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 is not laid out as this program&apos;s campaign files are: a table or an index is missing or defined otherwise. It was refused. Ask for the file again from its owner.</source>
        <translation>%1 không có cấu trúc như các tệp rà soát của chương trình này: thiếu một bảng hoặc chỉ mục, hoặc được định nghĩa khác. Tệp đã bị từ chối. Hãy xin lại tệp từ chủ sở hữu.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 is damaged: the database&apos;s own check or its settings fail. Ask for the file again from its owner.</source>
        <translation>%1 bị hỏng: bước kiểm tra của chính cơ sở dữ liệu hoặc phần thiết lập của nó không đạt. Hãy xin lại tệp từ chủ sở hữu.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reading %1 took too long: it was given up. A campaign file opens in moments; this one may be built to hold the program.</source>
        <translation>Đọc %1 mất quá nhiều thời gian nên đã bỏ dở. Một tệp rà soát thường mở trong chốc lát; tệp này có thể được tạo ra để làm treo chương trình.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is your own account: another reviewer decides it. Nothing was recorded.</source>
        <extracomment>A decision refused (``%1``: the item&apos;s name).</extracomment>
        <translation>%1 là tài khoản của chính bạn: người rà soát khác sẽ quyết định. Chưa ghi nhận gì.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is signed off: its decision is frozen. Nothing was recorded.</source>
        <translation>%1 đã được ký xác nhận: quyết định đã bị khóa. Chưa ghi nhận gì.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The campaign is closed: decisions are final. Nothing was recorded.</source>
        <translation>Đợt rà soát đã đóng: các quyết định là cuối cùng. Chưa ghi nhận gì.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is not in this campaign.</source>
        <translation>%1 không thuộc đợt rà soát này.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The campaign is already signed off with another key.</source>
        <translation>Đợt rà soát đã được ký xác nhận bằng một khóa khác.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The campaign refused it: %1</source>
        <translation>Đợt rà soát đã từ chối: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A sign-off is by a key this installation does not trust. Compare its fingerprint with the reviewer&apos;s by another channel, then trust the key (Remediate… lists the signers).</source>
        <translation>Có một lần ký xác nhận bằng khóa mà bản cài đặt này không tin cậy. Hãy đối chiếu dấu vân tay với của người rà soát qua một kênh khác, rồi tin cậy khóa (“Khắc phục…” liệt kê những người ký).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A sign-off was made by an earlier version of the program and does not cover the revocation action: the reviewer signs off again with this version.</source>
        <translation>Có một lần ký xác nhận được thực hiện bằng phiên bản cũ của chương trình và không bao gồm hành động thu hồi: người rà soát cần ký xác nhận lại bằng phiên bản này.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>More items are undecided than when you were asked: nothing was signed. Sign off again to be asked anew.</source>
        <translation>Số mục chưa quyết định nhiều hơn lúc bạn được hỏi: chưa ký gì cả. Hãy ký xác nhận lại để được hỏi lại.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>This campaign&apos;s scope was taken on another server (%1) than the one you are signed in to (%2): nothing was read or planned. Sign in to the campaign&apos;s server to remediate it.</source>
        <translation>Phạm vi của đợt rà soát này được lấy trên một máy chủ khác (%1) với máy chủ bạn đang đăng nhập (%2): chưa đọc hay lập kế hoạch gì. Hãy đăng nhập vào máy chủ của đợt rà soát để khắc phục.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>An item was decided by the reviewer&apos;s own account: another reviewer decides it. Nothing was signed.</source>
        <translation>Có mục được quyết định bởi chính tài khoản của người rà soát: người rà soát khác phải quyết định. Chưa ký gì.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>An item named is not in this campaign.</source>
        <translation>Mục được nêu không thuộc đợt rà soát này.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The file is part of another campaign: nothing of it was used.</source>
        <translation>Tệp thuộc một đợt rà soát khác: không dùng nội dung nào của tệp.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>An item is decided differently in the two files: nothing of the file was merged.</source>
        <translation>Có mục được quyết định khác nhau trong hai tệp: chưa gộp nội dung nào của tệp.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Signed-off Revokes are not carried out yet: closing would leave them for good.</source>
        <translation>Các quyết định Thu hồi đã ký xác nhận chưa được thực hiện: đóng lại sẽ bỏ chúng vĩnh viễn.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>A campaign needs a name.</source>
        <extracomment>Why an input was refused (BAD_INPUT), by the engine&apos;s reason (``%1``: its parameter).</extracomment>
        <translation>Đợt rà soát cần có tên.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is not a date (YYYY-MM-DD).</source>
        <translation>%1 không phải là ngày (YYYY-MM-DD).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A revocation suspends or deactivates the account.</source>
        <translation>Thu hồi là tạm ngưng hoặc vô hiệu hóa tài khoản.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The days after which an account counts as not updated must be at least 1.</source>
        <translation>Số ngày để coi một tài khoản là chưa cập nhật phải ít nhất là 1.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The snapshot %1 cannot be read: take a new one.</source>
        <translation>Không đọc được ảnh chụp %1: hãy chụp ảnh mới.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 exists already: a campaign file is never overwritten. Choose another.</source>
        <translation>%1 đã tồn tại: tệp đợt rà soát không bao giờ bị ghi đè. Hãy chọn tệp khác.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The earlier file %1 is neither a snapshot nor a campaign that can be read.</source>
        <translation>Tệp trước %1 không phải ảnh chụp hay đợt rà soát đọc được.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is not a decision: Keep, Revoke or Don&apos;t know.</source>
        <translation>%1 không phải là quyết định: Giữ, Thu hồi hoặc Không biết.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A justification has at most %1 characters.</source>
        <translation>Lý do có tối đa %1 ký tự.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A reviewer&apos;s name is one line of text (an e-mail address, say).</source>
        <translation>Tên người rà soát là một dòng văn bản (ví dụ một địa chỉ e-mail).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server gave an account id or e-mail address that is not one line.</source>
        <translation>Máy chủ trả về ID tài khoản hoặc địa chỉ e-mail không nằm trên một dòng.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The campaign has no items to sign off.</source>
        <translation>Đợt rà soát không có mục nào để ký xác nhận.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The closing snapshot %1 cannot be read.</source>
        <translation>Không đọc được ảnh chụp khi đóng %1.</translation>
    </message>
    <message>
        <location line="-123"/>
        <source>The file %1 does not exist.</source>
        <extracomment>A file that cannot be opened as a campaign (``%1``: the file&apos;s name).</extracomment>
        <translation>Tệp %1 không tồn tại.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is not a campaign file, or it is damaged.</source>
        <translation>%1 không phải tệp đợt rà soát, hoặc đã bị hỏng.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 was made by a newer version of the program.</source>
        <translation>%1 được tạo bởi phiên bản chương trình mới hơn.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="+23"/>
        <source>Revoked and done</source>
        <translation>Đã thu hồi và hoàn tất</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revoked, not done</source>
        <translation>Đã thu hồi, chưa thực hiện</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept, changed meanwhile</source>
        <translation>Đã giữ, có thay đổi trong thời gian đó</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Appeared after the scope</source>
        <translation>Xuất hiện sau phạm vi</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="+130"/>
        <source>A justification is required to revoke.</source>
        <translation>Cần có lý do để thu hồi.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A justification is required for Don&apos;t know.</source>
        <translation>Cần có lý do cho “Không rõ”.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A justification is required to keep a flagged item.</source>
        <translation>Cần có lý do để giữ một mục có cờ.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+248"/>
        <source>The campaign cannot be read now.</source>
        <extracomment>Who reviews: this installation&apos;s key and the signed-in account (``identity.py``). This computer has no usable keyring: nobody can decide here. The question asked before a step (sign off, close) while it shows. Decisions are written by one thread of their own (its own connection to the file): the fsync of each transaction never holds the loop; one decision at a time.</extracomment>
        <translation>Hiện không đọc được đợt rà soát.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/open_step.py" line="+31"/>
        <source>Campaigns (*.review);;All files (*)</source>
        <extracomment>Seconds the engine&apos;s checks of a file may take when the panel opens it (a 100,000-item file takes well under one); past them, and a few more, the panel gives up waiting.</extracomment>
        <translation>Đợt rà soát (*.review);;Mọi tệp (*)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>This file cannot be used as a campaign.</source>
        <translation>Không thể dùng tệp này làm đợt rà soát.</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>The campaign could not be created.</source>
        <translation>Không thể tạo đợt rà soát.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="+43"/>
        <location line="+39"/>
        <source>Any flag</source>
        <extracomment>A filter changed (the text after a pause of typing).</extracomment>
        <translation>Mọi cờ</translation>
    </message>
    <message>
        <location line="-35"/>
        <location line="+37"/>
        <source>Any portal</source>
        <translation>Mọi cổng</translation>
    </message>
    <message>
        <location line="-33"/>
        <location line="+36"/>
        <source>Any institution</source>
        <translation>Mọi tổ chức</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+123"/>
        <source>The decision was refused.</source>
        <translation>Quyết định bị từ chối.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/queue_view.py" line="+130"/>
        <source>Every item the filter shows is decided.</source>
        <extracomment>What each key of the queue decides. The current row or the selection moved (once per turn of the loop). K, R or D pressed in the queue: the :class:`Decision`. J pressed in the queue.</extracomment>
        <translation>Mọi mục mà bộ lọc hiển thị đều đã được quyết định.</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>%1 items selected: one decision and one justification for all.</source>
        <translation>Đã chọn %1 mục: một quyết định và một lý do cho tất cả.</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Your own account: another reviewer decides it.</source>
        <translation>Tài khoản của chính bạn: người rà soát khác sẽ quyết định.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 by %2 on %3: %4</source>
        <translation>%1 bởi %2 lúc %3: %4</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/decision_form.py" line="+85"/>
        <source>A justification is required for Revoke, for Don&apos;t know, and for Keep on a flagged item.</source>
        <extracomment>Keep, Revoke or Don&apos;t know clicked: the :class:`Decision`. Next undecided clicked.</extracomment>
        <translation>Cần có lý do khi Thu hồi, khi Không rõ, và khi Giữ một mục có cờ.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A justification is required for Revoke and for Don&apos;t know.</source>
        <translation>Cần có lý do khi Thu hồi và khi Không rõ.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/progress_line.py" line="+19"/>
        <source>%1 of %2 decided: %3 kept, %4 revoked, %5 don&apos;t know.</source>
        <translation>Đã quyết định %1 / %2: giữ %3, thu hồi %4, không rõ %5.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>By reviewer: %1.</source>
        <translation>Theo người rà soát: %1.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Due %1. Closed.</source>
        <translation>Hạn %1. Đã đóng.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Due %1: overdue, %2 items late.</source>
        <translation>Hạn %1: quá hạn, %2 mục trễ.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Due %1.</source>
        <translation>Hạn %1.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+39"/>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="-96"/>
        <source>The campaign is closed: decisions are final.</source>
        <extracomment>A step of the campaign (sign off, remediate, close) refused.</extracomment>
        <translation>Đợt rà soát đã đóng: các quyết định là cuối cùng.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Signed off: the decisions are frozen.</source>
        <translation>Đã ký xác nhận: các quyết định đã bị khóa.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Sign in to do this: it reads the server.</source>
        <translation>Hãy đăng nhập để làm việc này: nó đọc máy chủ.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+31"/>
        <source>The campaign was not signed off.</source>
        <translation>Đợt rà soát chưa được ký xác nhận.</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Signed off by %1: %2 items, key %3. Give this fingerprint to the administrator by another channel.</source>
        <translation>Đã được %1 ký xác nhận: %2 mục, khóa %3. Hãy gửi dấu vân tay này cho quản trị viên qua một kênh khác.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/remediate_step.py" line="+54"/>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+24"/>
        <source>The sign-offs were not checked.</source>
        <translation>Chưa kiểm tra các lần ký xác nhận.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="+4"/>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+6"/>
        <source>Nothing in this campaign is signed off yet.</source>
        <translation>Chưa có gì trong đợt rà soát này được ký xác nhận.</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+20"/>
        <source>The campaign changed since it was signed off.</source>
        <translation>Đợt rà soát đã bị thay đổi sau khi ký xác nhận.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/remediate_step.py" line="+17"/>
        <source>Nothing was remediated.</source>
        <translation>Chưa khắc phục gì.</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>You reviewed this campaign.</source>
        <translation>Bạn đã rà soát đợt này.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No signed-off Revoke to carry out.</source>
        <translation>Không có quyết định Thu hồi đã ký xác nhận nào để thực hiện.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="+43"/>
        <source>The campaign was not closed.</source>
        <translation>Đợt rà soát chưa được đóng.</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Closed. Revoked and done: %1; not done: %2; kept, changed meanwhile: %3; appeared after the scope: %4.</source>
        <translation>Đã đóng. Đã thu hồi và hoàn tất: %1; chưa thực hiện: %2; đã giữ, có thay đổi: %3; xuất hiện sau phạm vi: %4.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+63"/>
        <source>Open a campaign file…</source>
        <translation>Mở tệp đợt rà soát…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New campaign from a snapshot…</source>
        <translation>Đợt rà soát mới từ ảnh chụp…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No campaign open</source>
        <translation>Chưa mở đợt rà soát nào</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="-15"/>
        <source>The sign-offs verify, but a signer&apos;s key is not trusted by this installation: remediation is refused until it is.</source>
        <translation>Các lần ký xác nhận hợp lệ, nhưng khóa của một người ký không được bản cài đặt này tin cậy: việc khắc phục bị từ chối cho đến khi khóa được tin cậy.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The sign-offs verify:
%1</source>
        <translation>Các lần ký xác nhận hợp lệ:
%1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+3"/>
        <source>Reviewer:</source>
        <translation>Người rà soát:</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/decision_form.py" line="+11"/>
        <source>&amp;Justification:</source>
        <translation>&amp;Lý do:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Why (required for Revoke, Don&apos;t know, and Keep on a flagged item)</source>
        <translation>Vì sao (bắt buộc khi Thu hồi, Không rõ, và Giữ một mục có cờ)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Keep</source>
        <translation>G&amp;iữ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep the access (K in the queue)</source>
        <translation>Giữ quyền truy cập (K trong hàng đợi)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Revoke</source>
        <translation>&amp;Thu hồi</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Revoke the access (R in the queue)</source>
        <translation>Thu hồi quyền truy cập (R trong hàng đợi)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Don&apos;t know</source>
        <translation>&amp;Không rõ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Someone else must decide (D in the queue)</source>
        <translation>Người khác phải quyết định (D trong hàng đợi)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Next undecided</source>
        <translation>&amp;Mục chưa quyết định tiếp theo</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>N in the queue; J moves to the justification, Esc back</source>
        <translation>N trong hàng đợi; J chuyển đến lý do, Esc quay lại</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+3"/>
        <source>Sign off…</source>
        <translation>Ký xác nhận…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify</source>
        <translation>Kiểm tra</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remediate…</source>
        <translation>Khắc phục…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close the campaign</source>
        <translation>Đóng đợt rà soát</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence pack…</source>
        <translation>Gói bằng chứng…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="-13"/>
        <source>Search e-mail, name or id</source>
        <translation>Tìm e-mail, tên hoặc mã</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="-46"/>
        <source>Item</source>
        <translation>Mục</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outcome</source>
        <translation>Kết quả</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State at closing</source>
        <translation>Trạng thái khi đóng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Detail</source>
        <translation>Chi tiết</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/queue_view.py" line="+12"/>
        <source>Review queue</source>
        <translation>Hàng đợi rà soát</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="+17"/>
        <source>Show items</source>
        <translation>Mục hiển thị</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter by flag</source>
        <translation>Lọc theo cờ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter by portal</source>
        <translation>Lọc theo cổng</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter by institution</source>
        <translation>Lọc theo tổ chức</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search the queue</source>
        <translation>Tìm trong hàng đợi</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="+3"/>
        <source>Closing check</source>
        <translation>Kiểm tra khi đóng</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+4"/>
        <source>Campaigns</source>
        <translation>Đợt rà soát</translation>
    </message>
</context>
<context>
    <name>CampaignsTour</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/tour.py" line="+40"/>
        <source>Q4 access review</source>
        <extracomment>Turns of 20 ms a stop waits for its question to show (30 s).</extracomment>
        <translation>Rà soát quyền truy cập quý 4</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Still on the support team</source>
        <translation>Vẫn thuộc nhóm hỗ trợ</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Left the company in October</source>
        <translation>Đã nghỉ việc vào tháng 10</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Contractor: ask the project lead</source>
        <translation>Nhân viên hợp đồng: hỏi trưởng dự án</translation>
    </message>
</context>
<context>
    <name>ChangePassword</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/change_password.py" line="+41"/>
        <source>Enter your current password.</source>
        <translation>Nhập mật khẩu hiện tại.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The new password must differ from the current one.</source>
        <translation>Mật khẩu mới phải khác mật khẩu hiện tại.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Your password was changed.</source>
        <translation>Đã đổi mật khẩu của bạn.</translation>
    </message>
    <message>
        <location line="+75"/>
        <location line="+24"/>
        <source>Close</source>
        <translation>Đóng</translation>
    </message>
    <message>
        <location line="-15"/>
        <location line="+13"/>
        <source>Change password</source>
        <translation>Đổi mật khẩu</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Change your password</source>
        <translation>Đổi mật khẩu của bạn</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Enter your current password, then the new one twice.</source>
        <translation>Nhập mật khẩu hiện tại, rồi nhập mật khẩu mới hai lần.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Current password:</source>
        <translation>Mật khẩu &amp;hiện tại:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;New password:</source>
        <translation>Mật khẩu &amp;mới:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Repeat it:</source>
        <translation>&amp;Nhập lại:</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cancel</source>
        <translation>Hủy</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Current password</source>
        <translation>Mật khẩu hiện tại</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New password</source>
        <translation>Mật khẩu mới</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Repeat the new password</source>
        <translation>Nhập lại mật khẩu mới</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Change the password</source>
        <translation>Đổi mật khẩu</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Close this dialog</source>
        <translation>Đóng hộp thoại này</translation>
    </message>
</context>
<context>
    <name>ChannelColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/channels_model.py" line="+44"/>
        <source>Name</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/channels_model.py:42)</translatorcomment>
        <translation>Tên</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Category</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/channels_model.py:45)</translatorcomment>
        <translation>Danh mục</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Status</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/channels_model.py:51)</translatorcomment>
        <translation>Trạng thái</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Default</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/channels_model.py:55)</translatorcomment>
        <translation>Mặc định</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Delivers via</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/channels_model.py:56)</translatorcomment>
        <translation>Gửi qua</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Institution</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/channels_model.py:59)</translatorcomment>
        <translation>Tổ chức</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Description</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/channels_model.py:64)</translatorcomment>
        <translation>Mô tả</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Updated</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/channels_model.py:68)</translatorcomment>
        <translation>Ngày cập nhật</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Created</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/channels_model.py:75)</translatorcomment>
        <translation>Ngày tạo</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Active</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/channels_model.py:83)</translatorcomment>
        <translation>Đang hoạt động</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Id</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/channels_model.py:88)</translatorcomment>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>ChannelDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/channel_dialog.py" line="+199"/>
        <location line="+115"/>
        <source>Name</source>
        <extracomment>(protocol, keyword arguments of the client&apos;s validate operation)</extracomment>
        <translation>Tên</translation>
    </message>
    <message>
        <location line="-110"/>
        <source>Choose a category.</source>
        <translation>Hãy chọn một danh mục.</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+111"/>
        <source>Description</source>
        <translation>Mô tả</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>✔ %1 check passed: %2</source>
        <translation>✔ Kiểm tra %1 thành công: %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>✘ %1 check failed: %2</source>
        <translation>✘ Kiểm tra %1 thất bại: %2</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>New notification channel</source>
        <translation>Kênh thông báo mới</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edit channel “%1”</source>
        <translation>Sửa kênh “%1”</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Name:</source>
        <translation>&amp;Tên:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Category:</source>
        <translation>&amp;Danh mục:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Institution:</source>
        <translation>Tổ c&amp;hức:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Description:</source>
        <translation>&amp;Mô tả:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;tatus:</source>
        <translation>T&amp;rạng thái:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Category</source>
        <translation>Danh mục</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution</source>
        <translation>Tổ chức</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Status</source>
        <translation>Trạng thái</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Your institution</source>
        <translation>Tổ chức của bạn</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Default channel of its category</source>
        <translation>Kênh mặc định của danh mục</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Default channel</source>
        <translation>Kênh mặc định</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+2"/>
        <source>Settings</source>
        <translation>Cài đặt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Test connection</source>
        <translation>&amp;Kiểm tra kết nối</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Test connection</source>
        <translation>Kiểm tra kết nối</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ask the server to check the mail-server settings</source>
        <translation>Yêu cầu máy chủ kiểm tra cài đặt máy chủ thư</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+1"/>
        <source>Save</source>
        <translation>Lưu</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Checks the mail-server settings with the server, then saves</source>
        <translation>Kiểm tra cài đặt máy chủ thư với máy chủ, rồi lưu</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>Hủy</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Server check</source>
        <translation>Kiểm tra của máy chủ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Input problems</source>
        <translation>Vấn đề dữ liệu nhập</translation>
    </message>
</context>
<context>
    <name>ChannelSettings</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/settings_forms.py" line="+190"/>
        <location line="+30"/>
        <source>Host</source>
        <extracomment>The usual port of each security mode, for SMTP and for IMAP.</extracomment>
        <translation>Máy chủ</translation>
    </message>
    <message>
        <location line="-27"/>
        <location line="+39"/>
        <source>Username</source>
        <translation>Tên người dùng</translation>
    </message>
    <message>
        <location line="-33"/>
        <location line="+37"/>
        <source>Password</source>
        <translation>Mật khẩu</translation>
    </message>
    <message>
        <location line="-31"/>
        <location line="+35"/>
        <source>From address</source>
        <translation>Địa chỉ người gửi</translation>
    </message>
    <message>
        <location line="-30"/>
        <location line="+34"/>
        <source>From name</source>
        <translation>Tên người gửi</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>&amp;Host:</source>
        <translation>Máy &amp;chủ:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Port:</source>
        <translation>&amp;Số cổng:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Port</source>
        <translation>Số cổng</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Security:</source>
        <translation>&amp;Bảo mật:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Security</source>
        <translation>Bảo mật</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Username:</source>
        <translation>Tên &amp;người dùng:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Pass&amp;word:</source>
        <translation>Mật khẩ&amp;u:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;From address:</source>
        <translation>Địa chỉ người &amp;gửi:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>From &amp;name:</source>
        <translation>Tên người gử&amp;i:</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>SMTP</source>
        <translation>SMTP</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>IMAP</source>
        <translation>IMAP</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>TLS (encrypted from the start)</source>
        <translation>TLS (mã hóa ngay từ đầu)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>STARTTLS (upgrade to encryption)</source>
        <translation>STARTTLS (nâng cấp lên mã hóa)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>None (unencrypted)</source>
        <translation>Không (không mã hóa)</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>Outgoing mail (SMTP)</source>
        <translation>Thư đi (SMTP)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Incoming mail (IMAP)</source>
        <translation>Thư đến (IMAP)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Use incoming mail (IMAP)</source>
        <translation>Dùng thư đến (IMAP)</translation>
    </message>
    <message>
        <location line="+44"/>
        <location line="+22"/>
        <source>Provider</source>
        <translation>Nhà cung cấp</translation>
    </message>
    <message>
        <location line="-18"/>
        <location line="+19"/>
        <source>API key</source>
        <translation>Khóa API</translation>
    </message>
    <message>
        <location line="-16"/>
        <location line="+17"/>
        <source>Sender id</source>
        <translation>ID người gửi</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>&amp;Provider:</source>
        <translation>&amp;Nhà cung cấp:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API &amp;key:</source>
        <translation>Khóa &amp;API:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sender &amp;id:</source>
        <translation>&amp;ID người gửi:</translation>
    </message>
    <message>
        <location line="+48"/>
        <location line="+14"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>&amp;URL:</source>
        <translation>&amp;URL:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signing &amp;secret:</source>
        <translation>Khóa &amp;bí mật ký:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Signing secret</source>
        <translation>Khóa bí mật ký</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Settings</source>
        <translation>Cài đặt</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Settings (JSON)</source>
        <translation>Cài đặt (JSON)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Stored secrets show as %1; leave them so to keep them.</source>
        <translation>Các bí mật đã lưu hiển thị là %1; giữ nguyên để không thay đổi chúng.</translation>
    </message>
</context>
<context>
    <name>ChannelState</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="+32"/>
        <source>Secure Channel: none</source>
        <translation>Kênh bảo mật: chưa có</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel: established</source>
        <translation>Kênh bảo mật: đã thiết lập</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel: failed</source>
        <translation>Kênh bảo mật: thất bại</translation>
    </message>
</context>
<context>
    <name>ChannelTypeColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/types_model.py" line="+25"/>
        <source>Code</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/types_model.py:23)</translatorcomment>
        <translation>Mã</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Value</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/types_model.py:26)</translatorcomment>
        <translation>Giá trị</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Name</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/types_model.py:31)</translatorcomment>
        <translation>Tên</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Description</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/types_model.py:34)</translatorcomment>
        <translation>Mô tả</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Status</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/types_model.py:39)</translatorcomment>
        <translation>Trạng thái</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Display order</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/types_model.py:43)</translatorcomment>
        <translation>Thứ tự hiển thị</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Enabled</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/types_model.py:48)</translatorcomment>
        <translation>Đã bật</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Updated</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/types_model.py:51)</translatorcomment>
        <translation>Ngày cập nhật</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Created</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/types_model.py:58)</translatorcomment>
        <translation>Ngày tạo</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Icon</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/types_model.py:64)</translatorcomment>
        <translation>Biểu tượng</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Id</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/types_model.py:65)</translatorcomment>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>ChannelTypeDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/type_dialog.py" line="+139"/>
        <location line="+80"/>
        <source>Name</source>
        <translation>Tên</translation>
    </message>
    <message>
        <location line="-75"/>
        <location line="+76"/>
        <source>Description</source>
        <translation>Mô tả</translation>
    </message>
    <message>
        <location line="-71"/>
        <location line="+73"/>
        <source>Icon URL</source>
        <translation>URL biểu tượng</translation>
    </message>
    <message>
        <location line="-70"/>
        <location line="+71"/>
        <source>Extra settings</source>
        <translation>Cài đặt bổ sung</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>New channel type</source>
        <translation>Loại kênh mới</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Edit channel type %1</source>
        <translation>Sửa loại kênh %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Code:</source>
        <translation>&amp;Mã:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Name:</source>
        <translation>Tê&amp;n:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Description:</source>
        <translation>Mô &amp;tả:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Display &amp;order:</source>
        <translation>Thứ tự &amp;hiển thị:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Icon URL:</source>
        <translation>&amp;URL biểu tượng:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>E&amp;xtra settings (JSON):</source>
        <translation>Cài đặt &amp;bổ sung (JSON):</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Code</source>
        <translation>Mã</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Display order</source>
        <translation>Thứ tự hiển thị</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>e.g. TEAMS_CHAT</source>
        <translation>ví dụ TEAMS_CHAT</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Automatic</source>
        <translation>Tự động</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Optional, for example {&quot;retries&quot;: 3}</source>
        <translation>Không bắt buộc, ví dụ {&quot;retries&quot;: 3}</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+1"/>
        <source>Save</source>
        <translation>Lưu</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+2"/>
        <source>Cancel</source>
        <translation>Hủy</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Input problems</source>
        <translation>Vấn đề dữ liệu nhập</translation>
    </message>
</context>
<context>
    <name>ChannelTypesPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/types_panel.py" line="+121"/>
        <location line="+82"/>
        <source>Any status</source>
        <translation>Mọi trạng thái</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Code</source>
        <translation>Mã</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Value</source>
        <translation>Giá trị</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Name</source>
        <translation>Tên</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Description</source>
        <translation>Mô tả</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Status</source>
        <translation>Trạng thái</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Display order</source>
        <translation>Thứ tự hiển thị</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Icon URL</source>
        <translation>URL biểu tượng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Extra settings</source>
        <translation>Cài đặt bổ sung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>Ngày tạo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Updated</source>
        <translation>Ngày cập nhật</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Disable</source>
        <translation>Tắt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Enable</source>
        <translation>Bật</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Disable the channel type</source>
        <translation>Tắt loại kênh</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Enable the channel type</source>
        <translation>Bật loại kênh</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Code:</source>
        <translation>&amp;Mã:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Status:</source>
        <translation>&amp;Trạng thái:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Any code</source>
        <translation>Mọi mã</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter by code</source>
        <translation>Lọc theo mã</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter by status</source>
        <translation>Lọc theo trạng thái</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Ena&amp;bled only</source>
        <translation>Chỉ loại đang &amp;bật</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Enabled only</source>
        <translation>Chỉ loại đang bật</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;New…</source>
        <translation>Tạ&amp;o mới…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New channel type</source>
        <translation>Loại kênh mới</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Edit…</source>
        <translation>&amp;Sửa…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit the channel type</source>
        <translation>Sửa loại kênh</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Delete…</source>
        <translation>&amp;Xóa…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Delete the channel type</source>
        <translation>Xóa loại kênh</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Could not create the channel type</source>
        <translation>Không thể tạo loại kênh</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Could not save the channel type</source>
        <translation>Không thể lưu loại kênh</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Could not disable the channel type</source>
        <translation>Không thể tắt loại kênh</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Could not enable the channel type</source>
        <translation>Không thể bật loại kênh</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Delete channel type</source>
        <translation>Xóa loại kênh</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete the channel type “%1” (%2)? This cannot be undone.</source>
        <translation>Xóa loại kênh “%1” (%2)? Không thể hoàn tác thao tác này.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Delete</source>
        <translation>Xóa</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Could not delete the channel type</source>
        <translation>Không thể xóa loại kênh</translation>
    </message>
</context>
<context>
    <name>ChannelsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/channels_panel.py" line="+139"/>
        <location line="+91"/>
        <source>Any category</source>
        <translation>Mọi danh mục</translation>
    </message>
    <message>
        <location line="-83"/>
        <location line="+88"/>
        <source>Any status</source>
        <translation>Mọi trạng thái</translation>
    </message>
    <message>
        <location line="-67"/>
        <source>Name</source>
        <translation>Tên</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Category</source>
        <translation>Danh mục</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Status</source>
        <translation>Trạng thái</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Default</source>
        <translation>Mặc định</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Yes</source>
        <translation>Có</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No</source>
        <translation>Không</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Institution</source>
        <translation>Tổ chức</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Description</source>
        <translation>Mô tả</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>Ngày tạo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Updated</source>
        <translation>Ngày cập nhật</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Deactivate</source>
        <translation>Vô hiệu hóa</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Activate</source>
        <translation>Kích hoạt</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Deactivate the channel</source>
        <translation>Vô hiệu hóa kênh</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Activate the channel</source>
        <translation>Kích hoạt kênh</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Institution:</source>
        <translation>&amp;Tổ chức:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Category:</source>
        <translation>&amp;Danh mục:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Status:</source>
        <translation>T&amp;rạng thái:</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Any institution id</source>
        <translation>Mọi ID tổ chức</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter by institution</source>
        <translation>Lọc theo tổ chức</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter by category</source>
        <translation>Lọc theo danh mục</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Filter by status</source>
        <translation>Lọc theo trạng thái</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Active only</source>
        <translation>Chỉ kênh đang &amp;hoạt động</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Active only</source>
        <translation>Chỉ kênh đang hoạt động</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;New…</source>
        <translation>Tạ&amp;o mới…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New channel</source>
        <translation>Kênh mới</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Edit…</source>
        <translation>&amp;Sửa…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit the channel</source>
        <translation>Sửa kênh</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Delete…</source>
        <translation>&amp;Xóa…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Delete the channel</source>
        <translation>Xóa kênh</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Could not load the categories</source>
        <extracomment>Categories a new channel may use: the enabled channel types.</extracomment>
        <translation>Không thể tải danh mục</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Could not check the %1 settings</source>
        <translation>Không thể kiểm tra cài đặt %1</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Could not create the channel</source>
        <translation>Không thể tạo kênh</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Could not save the channel</source>
        <translation>Không thể lưu kênh</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Could not deactivate the channel</source>
        <translation>Không thể vô hiệu hóa kênh</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Could not activate the channel</source>
        <translation>Không thể kích hoạt kênh</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Delete channel</source>
        <translation>Xóa kênh</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete the channel “%1” (%2)? This cannot be undone.</source>
        <translation>Xóa kênh “%1” (%2)? Không thể hoàn tác thao tác này.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Delete</source>
        <translation>Xóa</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Could not delete the channel</source>
        <translation>Không thể xóa kênh</translation>
    </message>
</context>
<context>
    <name>Confirm</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/confirm.py" line="+32"/>
        <source>This changes the %1 server “%2”.</source>
        <translation>Thao tác này thay đổi máy chủ %1 “%2”.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Cancel</source>
        <translation>Hủy</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Confirm change on production</source>
        <translation>Xác nhận thay đổi trên môi trường chính thức</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Apply change</source>
        <translation>Áp dụng thay đổi</translation>
    </message>
</context>
<context>
    <name>ConnectionState</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="-15"/>
        <source>Not connected</source>
        <translation>Chưa kết nối</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connecting…</source>
        <translation>Đang kết nối…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connected</source>
        <translation>Đã kết nối</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server unreachable</source>
        <translation>Không kết nối được máy chủ</translation>
    </message>
</context>
<context>
    <name>ConstantColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reference/constants_panel.py" line="+63"/>
        <source>Code</source>
        <extracomment>The extra columns each list has (section 2.2); the others are hidden.</extracomment>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/constants_panel.py:61)</translatorcomment>
        <translation>Mã</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Value</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/constants_panel.py:64)</translatorcomment>
        <translation>Giá trị</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Label</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/constants_panel.py:71)</translatorcomment>
        <translation>Nhãn</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Description</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/constants_panel.py:75)</translatorcomment>
        <translation>Mô tả</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Alpha-2</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/constants_panel.py:82)</translatorcomment>
        <translation>Alpha-2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Alpha-3</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/constants_panel.py:89)</translatorcomment>
        <translation>Alpha-3</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Numeric code</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/constants_panel.py:96)</translatorcomment>
        <translation>Mã số</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Phone code</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/constants_panel.py:104)</translatorcomment>
        <translation>Mã điện thoại</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Zone id</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/constants_panel.py:111)</translatorcomment>
        <translation>ID múi giờ</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>UTC offset</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/constants_panel.py:118)</translatorcomment>
        <translation>Độ lệch UTC</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>ISO code</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/constants_panel.py:125)</translatorcomment>
        <translation>Mã ISO</translation>
    </message>
</context>
<context>
    <name>ConstantLists</name>
    <message>
        <location line="-104"/>
        <source>Countries</source>
        <extracomment>Readable names of the lists (source texts in context &quot;ConstantLists&quot;).</extracomment>
        <translation>Quốc gia</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Currency config statuses</source>
        <translation>Trạng thái cấu hình tiền tệ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notification channel statuses</source>
        <translation>Trạng thái kênh thông báo</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notification channel type statuses</source>
        <translation>Trạng thái loại kênh thông báo</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notification channel types</source>
        <translation>Loại kênh thông báo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Order statuses</source>
        <translation>Trạng thái đơn hàng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zones</source>
        <translation>Múi giờ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Transfer statuses</source>
        <translation>Trạng thái chuyển khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>US states</source>
        <translation>Các bang của Hoa Kỳ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account statuses</source>
        <translation>Trạng thái tài khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution statuses</source>
        <translation>Trạng thái tổ chức</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution types</source>
        <translation>Loại tổ chức</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitation statuses</source>
        <translation>Trạng thái lời mời</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Join sources</source>
        <translation>Nguồn tham gia</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal types</source>
        <translation>Loại cổng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace statuses</source>
        <translation>Trạng thái không gian làm việc</translation>
    </message>
</context>
<context>
    <name>ConstantsPanel</name>
    <message>
        <location line="+221"/>
        <source>/constants/%1</source>
        <translation>/constants/%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Constant lists</source>
        <translation>Danh sách hằng số</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Shown list</source>
        <translation>Danh sách đang hiển thị</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter by code, label or description</source>
        <translation>Lọc theo mã, nhãn hoặc mô tả</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Text filter</source>
        <translation>Bộ lọc văn bản</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Constants</source>
        <translation>Hằng số</translation>
    </message>
</context>
<context>
    <name>DemoMailbox</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/mailbox.py" line="+57"/>
        <source>The demo mailbox exists only in the built-in sandbox.</source>
        <extracomment>list[MailItem], newest first.</extracomment>
        <translation>Hộp thư demo chỉ có trong sandbox tích hợp.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No email has been sent to %1 yet.</source>
        <translation>Chưa có email nào được gửi tới %1.</translation>
    </message>
    <message>
        <location line="+189"/>
        <source>Demo mailbox — sandbox</source>
        <translation>Hộp thư demo — sandbox</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Demo mailbox</source>
        <translation>Hộp thư demo</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The built-in sandbox sends no real email. Every message it would send is kept here: codes, reset tokens and setup ids.</source>
        <translation>Sandbox tích hợp không gửi email thật. Mọi thư lẽ ra được gửi đều được lưu ở đây: mã, token đặt lại và ID thiết lập.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Address:</source>
        <translation>Đị&amp;a chỉ:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Refresh</source>
        <translation>Làm mới</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sent</source>
        <translation>Thời gian gửi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Subject</source>
        <translation>Tiêu đề</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Code:</source>
        <translation>Mã:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset token:</source>
        <translation>Token đặt lại:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Setup id:</source>
        <translation>ID thiết lập:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy</source>
        <translation>Sao chép</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Verification code</source>
        <translation>Mã xác minh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the verification code</source>
        <translation>Sao chép mã xác minh</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reset token</source>
        <translation>Token đặt lại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the reset token</source>
        <translation>Sao chép token đặt lại</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Setup session id</source>
        <translation>ID phiên thiết lập</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the setup session id</source>
        <translation>Sao chép ID phiên thiết lập</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Email address of the mailbox</source>
        <translation>Địa chỉ email của hộp thư</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Refresh the mailbox</source>
        <translation>Làm mới hộp thư</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Emails, newest first</source>
        <translation>Email, mới nhất trước</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Email text</source>
        <translation>Nội dung email</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Email subject</source>
        <translation>Tiêu đề email</translation>
    </message>
</context>
<context>
    <name>DetailPane</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/detail.py" line="+82"/>
        <source>Host</source>
        <translation>Máy chủ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Port</source>
        <translation>Số cổng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Security</source>
        <translation>Bảo mật</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Username</source>
        <translation>Tên người dùng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Password</source>
        <translation>Mật khẩu</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>From address</source>
        <translation>Địa chỉ người gửi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>From name</source>
        <translation>Tên người gửi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Provider</source>
        <translation>Nhà cung cấp</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API key</source>
        <translation>Khóa API</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sender id</source>
        <translation>ID người gửi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signing secret</source>
        <translation>Khóa bí mật ký</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IMAP</source>
        <translation>IMAP</translation>
    </message>
    <message>
        <location line="-23"/>
        <source>Select a row to see its details.</source>
        <translation>Chọn một dòng để xem chi tiết.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Details</source>
        <translation>Chi tiết</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>•••••• (set)</source>
        <translation>•••••• (đã đặt)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(not set)</source>
        <translation>(chưa đặt)</translation>
    </message>
</context>
<context>
    <name>DoctorAdvice</name>
    <message>
        <location filename="../src/portal_admin/ui/doctor/words.py" line="+145"/>
        <source>Send this report to the program&apos;s support.</source>
        <translation>Hãy gửi báo cáo này cho bộ phận hỗ trợ của chương trình.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check the spelling of the host name and your network connection. Inside a company network, check that the VPN is on: internal names resolve only there.</source>
        <translation>Hãy kiểm tra chính tả của tên máy chủ và kết nối mạng. Trong mạng công ty, hãy kiểm tra VPN đã bật: tên nội bộ chỉ phân giải được ở đó.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check your network connection and, inside a company network, that the VPN is on.</source>
        <translation>Hãy kiểm tra kết nối mạng và, trong mạng công ty, kiểm tra VPN đã bật.</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Check the port in the URL and that the server (or proxy) is running; a firewall may also refuse the connection.</source>
        <translation>Hãy kiểm tra số cổng trong URL và máy chủ (hoặc proxy) đang chạy; tường lửa cũng có thể từ chối kết nối.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A firewall is probably dropping the connection, or the server is down. Check that this network may reach the server (VPN, firewall rules).</source>
        <translation>Có thể tường lửa đang bỏ kết nối, hoặc máy chủ đang ngừng. Hãy kiểm tra mạng này có được phép tới máy chủ không (VPN, quy tắc tường lửa).</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check your network connection and the routes to the server (VPN).</source>
        <translation>Hãy kiểm tra kết nối mạng và đường đi tới máy chủ (VPN).</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The steps below still go through it.</source>
        <translation>Các bước bên dưới vẫn đi qua proxy đó.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Check the proxy&apos;s address and port.</source>
        <translation>Hãy kiểm tra địa chỉ và số cổng của proxy.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Put the proxy&apos;s user name and password in HTTPS_PROXY (http://user:password@proxy:port) and choose the system proxy setting, or ask your IT department; the report never shows them.</source>
        <translation>Hãy đặt tên người dùng và mật khẩu của proxy trong HTTPS_PROXY (http://user:password@proxy:port) và chọn cài đặt proxy của hệ thống, hoặc hỏi bộ phận IT; báo cáo không bao giờ hiện chúng.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Check the proxy&apos;s user name and password with your IT department.</source>
        <translation>Hãy kiểm tra tên người dùng và mật khẩu của proxy với bộ phận CNTT.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The proxy may not allow this server or port: ask your IT department, or choose no proxy if the server can be reached directly.</source>
        <translation>Proxy có thể không cho phép máy chủ hoặc số cổng này: hãy hỏi bộ phận CNTT, hoặc chọn không dùng proxy nếu có thể kết nối trực tiếp tới máy chủ.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check the proxy URL and its user name and password, or choose no proxy if the server can be reached directly.</source>
        <translation>Hãy kiểm tra URL proxy cùng tên người dùng và mật khẩu, hoặc chọn không dùng proxy nếu có thể kết nối trực tiếp tới máy chủ.</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>If the server&apos;s certificate was renewed, ask your IT department for the new fingerprint; otherwise something between you and the server shows its own certificate: do not sign in.</source>
        <translation>Nếu chứng chỉ của máy chủ đã được gia hạn, hãy hỏi bộ phận CNTT dấu vân tay mới; nếu không, có thứ gì đó giữa bạn và máy chủ đang đưa ra chứng chỉ của chính nó: đừng đăng nhập.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Tell the server&apos;s administrators: after that date no connection will work.</source>
        <translation>Hãy báo cho quản trị viên máy chủ: sau ngày đó sẽ không kết nối được nữa.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Ask the server&apos;s administrators to enable TLS 1.2 or 1.3.</source>
        <translation>Hãy đề nghị quản trị viên máy chủ bật TLS 1.2 hoặc 1.3.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Tell the server&apos;s administrators; also check this computer&apos;s date and time.</source>
        <translation>Hãy báo cho quản trị viên máy chủ; đồng thời kiểm tra ngày giờ của máy tính này.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Use a host name the certificate names in the URL, or ask the server&apos;s administrators for a certificate that names this one.</source>
        <translation>Hãy dùng trong URL một tên máy chủ có trong chứng chỉ, hoặc đề nghị quản trị viên máy chủ cấp chứng chỉ có tên này.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>If the server uses a private or company CA, or a proxy inspects TLS, get that CA&apos;s certificate (PEM) and choose it as the profile&apos;s CA bundle. Never turn verification off.</source>
        <translation>Nếu máy chủ dùng CA riêng hoặc CA của công ty, hoặc proxy kiểm tra TLS, hãy lấy chứng chỉ của CA đó (PEM) và chọn làm gói CA của hồ sơ kết nối. Không bao giờ tắt xác minh.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Choose the server&apos;s CA certificate as the profile&apos;s CA bundle, or ask its administrators.</source>
        <translation>Hãy chọn chứng chỉ CA của máy chủ làm gói CA của hồ sơ kết nối, hoặc hỏi quản trị viên máy chủ.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The URL says https:// but the port serves plain HTTP (or something else): check the scheme and port of the URL.</source>
        <translation>URL ghi https:// nhưng số cổng đó phục vụ HTTP thường (hoặc thứ khác): hãy kiểm tra giao thức và số cổng của URL.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server and this computer found no common TLS version or cipher, or something between them closed the connection. Check the URL&apos;s port and any proxy or firewall.</source>
        <translation>Máy chủ và máy tính này không tìm được phiên bản TLS hay bộ mã hóa chung, hoặc có thứ ở giữa đã đóng kết nối. Hãy kiểm tra số cổng của URL và mọi proxy hoặc tường lửa.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Something between you and the server holds the connection: check the URL&apos;s port and any firewall or proxy.</source>
        <translation>Có thứ gì đó giữa bạn và máy chủ đang giữ kết nối: hãy kiểm tra số cổng của URL và mọi tường lửa hoặc proxy.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Use https:// if the server offers it.</source>
        <translation>Hãy dùng https:// nếu máy chủ hỗ trợ.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Most things may still work; tell the server&apos;s administrators which version they run.</source>
        <translation>Phần lớn chức năng có thể vẫn hoạt động; hãy báo cho quản trị viên máy chủ phiên bản họ đang chạy.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>A server that is not a System Portal, a proxy that changes answers, or a server fault. Retry; if it keeps happening, send this report to the server&apos;s administrators.</source>
        <translation>Có thể máy chủ không phải System Portal, một proxy làm thay đổi phản hồi, hoặc máy chủ gặp lỗi. Hãy thử lại; nếu vẫn xảy ra, hãy gửi báo cáo này cho quản trị viên máy chủ.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The network or the server is slow: the program will work, but slowly. A VPN, a proxy or a distant server may explain it.</source>
        <translation>Mạng hoặc máy chủ chậm: chương trình vẫn hoạt động nhưng chậm. Nguyên nhân có thể là VPN, proxy hoặc máy chủ ở xa.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>This is a captive portal (sign in to the network in a web browser first), a web site, or a wrong URL: the URL must be the base address of a System Portal API.</source>
        <translation>Đây là cổng đăng nhập mạng (hãy đăng nhập vào mạng bằng trình duyệt web trước), một trang web, hoặc URL sai: URL phải là địa chỉ gốc của một System Portal API.</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+12"/>
        <source>A captive portal (hotel or guest Wi-Fi: open a web page and sign in to the network first), a sign-in page in front of the server, or a wrong URL (check http or https and the path).</source>
        <translation>Có thể là cổng đăng nhập mạng (Wi-Fi khách sạn hoặc Wi-Fi khách: hãy mở một trang web và đăng nhập vào mạng trước), một trang đăng nhập đặt trước máy chủ, hoặc URL sai (kiểm tra http hay https và đường dẫn).</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The server behind the gateway is down or cannot be reached from it; retry later, or tell the server&apos;s administrators.</source>
        <translation>Máy chủ phía sau gateway đang ngừng hoặc gateway không tới được nó; hãy thử lại sau, hoặc báo cho quản trị viên máy chủ.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The URL must be the base address of the System Portal API; check it with the server&apos;s administrators.</source>
        <translation>URL phải là địa chỉ gốc của System Portal API; hãy kiểm tra với quản trị viên máy chủ.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server (or a gateway in front of it) has a problem: retry later, and tell its administrators if it lasts.</source>
        <translation>Máy chủ (hoặc gateway phía trước nó) gặp sự cố: hãy thử lại sau, và báo cho quản trị viên nếu vẫn tiếp diễn.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Something between you and the server (a proxy, a load balancer, a firewall) or the server itself drops connections. Retry; if it keeps happening, tell the server&apos;s administrators.</source>
        <translation>Có thứ gì đó giữa bạn và máy chủ (proxy, bộ cân bằng tải, tường lửa) hoặc chính máy chủ đang ngắt kết nối. Hãy thử lại; nếu vẫn xảy ra, hãy báo cho quản trị viên máy chủ.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server or the network is very slow, or a firewall holds the connection.</source>
        <translation>Máy chủ hoặc mạng rất chậm, hoặc tường lửa đang giữ kết nối.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Check the URL, the network and any proxy.</source>
        <translation>Hãy kiểm tra URL, mạng và mọi proxy.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Check the profile&apos;s portal access code.</source>
        <translation>Hãy kiểm tra mã truy cập cổng của hồ sơ kết nối.</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+9"/>
        <source>Authenticator codes change every 30 seconds and sign-ins expire by the server&apos;s clock: codes may be refused. Set the wrong clock from a time server (NTP).</source>
        <translation>Mã của ứng dụng xác thực đổi sau mỗi 30 giây và phiên đăng nhập hết hạn theo đồng hồ của máy chủ: mã có thể bị từ chối. Hãy chỉnh đồng hồ sai theo máy chủ thời gian (NTP).</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Tell the server&apos;s administrators: the envelope&apos;s timestamp is unusable.</source>
        <translation>Hãy báo cho quản trị viên máy chủ: dấu thời gian trong phong bì không dùng được.</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The program refuses it unless the profile allows legacy padding. Ask the server&apos;s administrators to switch to RSA-OAEP-256.</source>
        <translation>Chương trình từ chối padding này trừ khi hồ sơ cho phép padding cũ. Hãy đề nghị quản trị viên máy chủ chuyển sang RSA-OAEP-256.</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+4"/>
        <location line="+48"/>
        <location line="+4"/>
        <location line="+4"/>
        <source>Send this report to the server&apos;s administrators.</source>
        <translation>Hãy gửi báo cáo này cho quản trị viên máy chủ.</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>The program fetches the key again by itself; if this happens often, tell the server&apos;s administrators that the key changes too often.</source>
        <translation>Chương trình tự lấy lại khóa; nếu việc này xảy ra thường xuyên, hãy báo cho quản trị viên máy chủ rằng khóa thay đổi quá thường xuyên.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The key rotates constantly, or servers behind a load balancer have different keys; tell the server&apos;s administrators.</source>
        <translation>Khóa bị thay liên tục, hoặc các máy chủ sau bộ cân bằng tải có khóa khác nhau; hãy báo cho quản trị viên máy chủ.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Sessions expire far too soon, or servers behind a load balancer do not share them. The program retries with a new session, at the cost of slower calls; tell the server&apos;s administrators.</source>
        <translation>Phiên hết hạn quá sớm, hoặc các máy chủ sau bộ cân bằng tải không dùng chung phiên. Chương trình thử lại với phiên mới, nhưng các lệnh gọi sẽ chậm hơn; hãy báo cho quản trị viên máy chủ.</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Enter the profile&apos;s portal access code; the portal&apos;s administrators give it.</source>
        <translation>Hãy nhập mã truy cập cổng của hồ sơ kết nối; quản trị viên cổng sẽ cung cấp mã này.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Check the profile&apos;s portal access code with the portal&apos;s administrators.</source>
        <translation>Hãy kiểm tra mã truy cập cổng của hồ sơ kết nối với quản trị viên cổng.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>See the earlier steps.</source>
        <translation>Xem các bước trước.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The program works, but lists show English labels (or raw keys) in those languages: the server&apos;s translations are missing.</source>
        <translation>Chương trình vẫn hoạt động, nhưng danh sách hiển thị nhãn tiếng Anh (hoặc khóa thô) ở các ngôn ngữ đó: máy chủ thiếu bản dịch.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>See the earlier steps: the server&apos;s answers are not usable.</source>
        <translation>Xem các bước trước: phản hồi của máy chủ không dùng được.</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The problems above may be these faults: start the sandbox without fault injection for a clean test.</source>
        <translation>Các vấn đề ở trên có thể chính là những lỗi này: hãy khởi động sandbox không chèn lỗi để kiểm tra sạch.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Whoever can read this file can sign evidence as this installation: keep it, and copies of it in backups, to yourself.</source>
        <translation>Ai đọc được tệp này đều có thể ký bằng chứng thay cho bản cài đặt này: hãy giữ tệp và các bản sao của nó trong bản sao lưu cho riêng mình.</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Evidence packs, review decisions, sign-offs and journal checkpoints cannot be signed until it can: if the key file has a passphrase, set PORTAL_ADMIN_KEY_PASSPHRASE.</source>
        <translation>Cho đến khi đọc được khóa, không thể ký gói bằng chứng, quyết định rà soát, phê duyệt và điểm kiểm tra nhật ký: nếu tệp khóa có cụm mật khẩu, hãy đặt PORTAL_ADMIN_KEY_PASSPHRASE.</translation>
    </message>
</context>
<context>
    <name>DoctorCodes</name>
    <message>
        <location line="-631"/>
        <source>%1 s</source>
        <translation>%1 giây</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 min</source>
        <translation>%1 phút</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 h</source>
        <translation>%1 giờ</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>The server runs inside this program: there is no network to check.</source>
        <extracomment>Summary and advice by diagnosis code (and a variant, see :func:`_key`).</extracomment>
        <translation>Máy chủ chạy bên trong chương trình này: không có mạng nào cần kiểm tra.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Skipped: an earlier step failed.</source>
        <translation>Bỏ qua: một bước trước đó thất bại.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skipped: the server cannot be reached (see above).</source>
        <translation>Bỏ qua: không thể kết nối tới máy chủ (xem ở trên).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Skipped: the server does not answer as a System Portal (see above).</source>
        <translation>Bỏ qua: máy chủ không phản hồi như một System Portal (xem ở trên).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Skipped: no usable public key.</source>
        <translation>Bỏ qua: không có khóa công khai dùng được.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skipped: the public list could not be read.</source>
        <translation>Bỏ qua: không thể đọc danh sách công khai.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The check stopped on an unexpected error.</source>
        <translation>Việc kiểm tra đã dừng vì một lỗi không mong đợi.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 resolves to %2.</source>
        <translation>%1 phân giải thành %2.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The name %1 could not be resolved.</source>
        <translation>Không thể phân giải tên %1.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The name %1 could not be resolved in time.</source>
        <translation>Không thể phân giải tên %1 kịp thời.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Connected to %1.</source>
        <translation>Đã kết nối tới %1.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The connection to %1 was refused: nothing listens on that port.</source>
        <translation>Kết nối tới %1 bị từ chối: không có gì lắng nghe ở số cổng đó.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>No answer from %1 in time.</source>
        <translation>%1 không phản hồi kịp thời.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server could not be reached at %1.</source>
        <translation>Không thể kết nối tới máy chủ tại %1.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No proxy is used for this server.</source>
        <translation>Máy chủ này không dùng proxy.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The proxy %1 lets the connection through.</source>
        <translation>Proxy %1 cho kết nối đi qua.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The proxy is reached over TLS, which this test does not check by itself.</source>
        <translation>Proxy được truy cập qua TLS, bài kiểm tra này không tự kiểm tra phần đó.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 does not answer as an HTTP proxy.</source>
        <translation>%1 không phản hồi như một proxy HTTP.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy requires a user name and password (HTTP 407).</source>
        <translation>Proxy yêu cầu tên người dùng và mật khẩu (HTTP 407).</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The proxy refused the user name and password it was given (HTTP 407).</source>
        <translation>Proxy từ chối tên người dùng và mật khẩu được cung cấp (HTTP 407).</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The proxy could not open a connection to the server (%1).</source>
        <translation>Proxy không thể mở kết nối tới máy chủ (%1).</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The proxy refused the request.</source>
        <translation>Proxy đã từ chối yêu cầu.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 with a valid, trusted certificate for %2.</source>
        <translation>%1 với chứng chỉ hợp lệ, được tin cậy cho %2.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 with a valid, trusted certificate for %2; it matches the pin.</source>
        <translation>%1 với chứng chỉ hợp lệ, được tin cậy cho %2; khớp với mã ghim.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server&apos;s certificate is not the one the profile pins (SHA-256 %1).</source>
        <translation>Chứng chỉ của máy chủ không phải chứng chỉ mà hồ sơ kết nối đã ghim (SHA-256 %1).</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server&apos;s certificate ends in %1 days (%2).</source>
        <translation>Chứng chỉ của máy chủ hết hạn sau %1 ngày (%2).</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server offers only %1, which is outdated.</source>
        <translation>Máy chủ chỉ hỗ trợ %1, phiên bản này đã lỗi thời.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The server&apos;s certificate has expired (%1).</source>
        <translation>Chứng chỉ của máy chủ đã hết hạn (%1).</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server&apos;s certificate is for %1, not for this host.</source>
        <translation>Chứng chỉ của máy chủ dành cho %1, không phải cho máy chủ này.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s certificate (issued by %1) is not trusted.</source>
        <translation>Chứng chỉ của máy chủ (do %1 cấp) không được tin cậy.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The server&apos;s certificate could not be verified (%1).</source>
        <translation>Không thể xác minh chứng chỉ của máy chủ (%1).</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s port does not speak TLS.</source>
        <translation>Số cổng của máy chủ không dùng TLS.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The TLS handshake failed.</source>
        <translation>Bắt tay TLS thất bại.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The TLS handshake got no answer in time.</source>
        <translation>Bắt tay TLS không nhận được phản hồi kịp thời.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The URL is plain http://: everything travels unencrypted.</source>
        <translation>URL là http:// thường: mọi dữ liệu được truyền không mã hóa.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Plain http to this computer: no TLS to check.</source>
        <translation>http thường tới máy tính này: không có TLS để kiểm tra.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A System Portal answer, envelope version %1, %2 items.</source>
        <translation>Phản hồi của System Portal, phong bì phiên bản %1, %2 mục.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The envelope&apos;s version is %1, not the one this program speaks.</source>
        <translation>Phiên bản phong bì là %1, không phải phiên bản chương trình này dùng.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The answer is not a valid System Portal envelope.</source>
        <translation>Phản hồi không phải là phong bì System Portal hợp lệ.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server answered a small public list in %1 s, which is slow.</source>
        <translation>Máy chủ mất %1 giây để trả về một danh sách công khai nhỏ, như vậy là chậm.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server answered with a web page (HTTP %1), not the System Portal API.</source>
        <translation>Máy chủ trả về một trang web (HTTP %1), không phải System Portal API.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server redirects (HTTP %1) instead of answering the API.</source>
        <translation>Máy chủ chuyển hướng (HTTP %1) thay vì trả lời API.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server redirects (HTTP %1) to %2 instead of answering the API.</source>
        <translation>Máy chủ chuyển hướng (HTTP %1) tới %2 thay vì trả lời API.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>A gateway or proxy answered with an HTML error page (HTTP %1) instead of the server.</source>
        <translation>Một gateway hoặc proxy trả về trang lỗi HTML (HTTP %1) thay cho máy chủ.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server answered HTTP %1 without the API&apos;s envelope: it is not a System Portal, or the URL&apos;s path is wrong.</source>
        <translation>Máy chủ trả về HTTP %1 mà không có phong bì API: đó không phải System Portal, hoặc đường dẫn của URL sai.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The server answered with an error (HTTP %1, code %2).</source>
        <translation>Máy chủ trả về lỗi (HTTP %1, mã %2).</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The connection was closed before a complete answer arrived.</source>
        <translation>Kết nối bị đóng trước khi nhận được phản hồi đầy đủ.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server did not answer in time.</source>
        <translation>Máy chủ không phản hồi kịp thời.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The connection could not be opened.</source>
        <translation>Không thể mở kết nối.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server refused the request: the portal access code is missing or wrong, or a gateway blocks this computer.</source>
        <translation>Máy chủ từ chối yêu cầu: thiếu hoặc sai mã truy cập cổng, hoặc một gateway chặn máy tính này.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server answered the error %1 (HTTP %2).</source>
        <translation>Máy chủ trả về lỗi %1 (HTTP %2).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server&apos;s clock and this computer&apos;s agree within %1.</source>
        <translation>Đồng hồ của máy chủ và của máy tính này lệch nhau không quá %1.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server&apos;s clock is %1 ahead of this computer&apos;s.</source>
        <translation>Đồng hồ của máy chủ nhanh hơn máy tính này %1.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s clock is %1 behind this computer&apos;s.</source>
        <translation>Đồng hồ của máy chủ chậm hơn máy tính này %1.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s timestamp cannot be read as a time.</source>
        <translation>Không thể đọc dấu thời gian của máy chủ thành thời điểm.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The server&apos;s answer carries no timestamp to compare with.</source>
        <translation>Phản hồi của máy chủ không có dấu thời gian để so sánh.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>An RSA key of %1 bits, wrapped with %2.</source>
        <translation>Khóa RSA %1 bit, bọc bằng %2.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server wraps keys with the legacy PKCS#1 v1.5 padding (%1).</source>
        <translation>Máy chủ bọc khóa bằng padding cũ PKCS#1 v1.5 (%1).</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server&apos;s key uses an algorithm this program does not know.</source>
        <translation>Khóa của máy chủ dùng một thuật toán mà chương trình này không biết.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server&apos;s public key is unusable.</source>
        <translation>Khóa công khai của máy chủ không dùng được.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A session was opened and closed; both answers were sealed and opened correctly.</source>
        <translation>Đã mở và đóng một phiên; cả hai phản hồi đều được mã hóa và giải mã đúng.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server changed its key between reading and using it; with the new key a session opened and closed.</source>
        <translation>Máy chủ đã đổi khóa giữa lúc đọc và lúc dùng; với khóa mới, phiên đã mở và đóng được.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server refused its own key twice: the key changes constantly.</source>
        <translation>Máy chủ hai lần từ chối chính khóa của nó: khóa thay đổi liên tục.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The session opened, but the server had already forgotten it when it was closed.</source>
        <translation>Phiên đã mở, nhưng khi đóng thì máy chủ đã quên phiên đó.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server could not open the key exchange: the algorithm it announces is not the one it uses.</source>
        <translation>Máy chủ không thể mở gói trao đổi khóa: thuật toán nó công bố không phải thuật toán nó dùng.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server&apos;s encrypted answer could not be opened.</source>
        <translation>Không thể giải mã phản hồi đã mã hóa của máy chủ.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The session answer has no session id.</source>
        <translation>Phản hồi phiên không có ID phiên.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server requires %1; this program sends them.</source>
        <translation>Máy chủ yêu cầu %1; chương trình này gửi các header đó.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No header is required before signing in.</source>
        <translation>Không cần header nào trước khi đăng nhập.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server requires a portal access code and none was given.</source>
        <translation>Máy chủ yêu cầu mã truy cập cổng nhưng chưa có mã nào được cung cấp.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server refuses the portal access code given.</source>
        <translation>Máy chủ từ chối mã truy cập cổng được cung cấp.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Whether the server requires %1 could not be told from its answers.</source>
        <translation>Không thể biết từ các phản hồi của máy chủ liệu nó có yêu cầu %1 hay không.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Labels answer in %1.</source>
        <translation>Nhãn được trả về bằng %1.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Labels are not translated for %1.</source>
        <translation>Nhãn chưa được dịch sang %1.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The labels could not be read in %1.</source>
        <translation>Không thể đọc nhãn bằng %1.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server is not a sandbox with fault injection.</source>
        <translation>Máy chủ không phải là sandbox có chèn lỗi.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server is a sandbox; fault injection is off.</source>
        <translation>Máy chủ là sandbox; chèn lỗi đang tắt.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server is a sandbox injecting faults on purpose: %1.</source>
        <translation>Máy chủ là sandbox đang cố ý chèn lỗi: %1.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Kept in the system keyring; fingerprint %1.</source>
        <translation>Được lưu trong keyring của hệ thống; dấu vân tay %1.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Kept in the key file %1 (no usable keyring), readable by its owner only; fingerprint %2.</source>
        <translation>Được lưu trong tệp khóa %1 (không có keyring dùng được), chỉ chủ sở hữu đọc được; dấu vân tay %2.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No key yet: it is made on first use, in the system keyring.</source>
        <translation>Chưa có khóa: khóa được tạo trong keyring của hệ thống khi dùng lần đầu.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No key yet: it is made on first use, in the key file %1.</source>
        <translation>Chưa có khóa: khóa được tạo trong tệp khóa %1 khi dùng lần đầu.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The evidence-signing key cannot be read: %1.</source>
        <translation>Không đọc được khóa ký bằng chứng: %1.</translation>
    </message>
</context>
<context>
    <name>DoctorDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/doctor/dialog.py" line="+108"/>
        <source>%1 s</source>
        <extracomment>The icon of each outcome (``ui/theme/icons.py``).</extracomment>
        <translation>%1 giây</translation>
    </message>
    <message>
        <location line="+159"/>
        <source>Testing the connection…</source>
        <extracomment>The report being written (``save_report``, started by the file dialog).</extracomment>
        <translation>Đang kiểm tra kết nối…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The test was stopped.</source>
        <translation>Đã dừng bài kiểm tra.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This profile cannot be tested: %1</source>
        <translation>Không thể kiểm tra hồ sơ kết nối này: %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The connection does not work: see the failed step above.</source>
        <translation>Kết nối không hoạt động: xem bước thất bại ở trên.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server can be used, but look at the warnings above.</source>
        <translation>Có thể dùng máy chủ, nhưng hãy xem các cảnh báo ở trên.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Everything works: this program can connect to the server.</source>
        <translation>Mọi thứ đều ổn: chương trình này có thể kết nối tới máy chủ.</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The report was copied.</source>
        <translation>Đã sao chép báo cáo.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Save report</source>
        <translation>Lưu báo cáo</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Text report (*.txt)</source>
        <translation>Báo cáo văn bản (*.txt)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>JSON report (*.json)</source>
        <translation>Báo cáo JSON (*.json)</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>The report could not be saved: %1</source>
        <translation>Không thể lưu báo cáo: %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The report was saved to %1.</source>
        <translation>Đã lưu báo cáo vào %1.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Test connection — %1</source>
        <translation>Kiểm tra kết nối — %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the built-in sandbox</source>
        <translation>sandbox tích hợp</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Server: %1</source>
        <translation>Máy chủ: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Checks the network, TLS and the API step by step, without signing in. The report holds no password, code or token.</source>
        <translation>Kiểm tra mạng, TLS và API từng bước, không đăng nhập. Báo cáo không chứa mật khẩu, mã hay token nào.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Steps</source>
        <translation>Các bước</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Copy report</source>
        <translation>&amp;Sao chép báo cáo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Save report…</source>
        <translation>&amp;Lưu báo cáo…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Run again</source>
        <translation>&amp;Chạy lại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;top</source>
        <translation>&amp;Dừng</translation>
    </message>
</context>
<context>
    <name>DoctorFaults</name>
    <message>
        <location filename="../src/portal_admin/ui/doctor/words.py" line="-673"/>
        <source>added latency of %1 ms</source>
        <extracomment>A sandbox&apos;s fault settings (``details[&quot;faults&quot;]``): words and how the value is written.</extracomment>
        <translation>thêm độ trễ %1 ms</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>latency jitter of up to %1 ms</source>
        <translation>dao động độ trễ tối đa %1 ms</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of answers are server errors</source>
        <translation>%1 phản hồi là lỗi máy chủ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of connections are dropped</source>
        <translation>%1 kết nối bị ngắt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of answers are malformed</source>
        <translation>%1 phản hồi bị sai định dạng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of answers are an HTML page</source>
        <translation>%1 phản hồi là trang HTML</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Secure Channel sessions expire before %1 of requests</source>
        <translation>phiên kênh bảo mật hết hạn trước %1 yêu cầu</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the key is rotated before %1 of requests</source>
        <translation>khóa được thay trước %1 yêu cầu</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the clock is shifted by %1 s</source>
        <translation>đồng hồ lệch %1 giây</translation>
    </message>
</context>
<context>
    <name>DoctorSteps</name>
    <message>
        <location line="-37"/>
        <source>DNS</source>
        <translation>DNS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TCP connection</source>
        <translation>Kết nối TCP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTTP proxy</source>
        <translation>Proxy HTTP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TLS</source>
        <translation>TLS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API envelope</source>
        <translation>Phong bì API</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server clock</source>
        <translation>Đồng hồ máy chủ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel public key</source>
        <translation>Khóa công khai của kênh bảo mật</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel session</source>
        <translation>Phiên kênh bảo mật</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pre-login headers</source>
        <translation>Header trước khi đăng nhập</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Label languages</source>
        <translation>Ngôn ngữ của nhãn</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sandbox fault injection</source>
        <translation>Chèn lỗi của sandbox</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence signing key</source>
        <translation>Khóa ký bằng chứng</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>OK</source>
        <translation>Tốt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Warning</source>
        <translation>Cảnh báo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>Thất bại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skipped</source>
        <translation>Bỏ qua</translation>
    </message>
</context>
<context>
    <name>EnumLabels</name>
    <message>
        <location filename="../src/portal_admin/ui/enum_labels.py" line="+19"/>
        <location line="+59"/>
        <location line="+60"/>
        <source>Active</source>
        <extracomment>Own labels by enumeration, found by its type name or its constants path. The enumerations with labels of the program&apos;s own, for ``shown``&apos;s ``kind``. An enumeration: its listing, type name (``UserAccountStatus``) or constants path.</extracomment>
        <translation>Đang hoạt động</translation>
    </message>
    <message>
        <location line="-118"/>
        <location line="+82"/>
        <source>Suspended</source>
        <translation>Bị tạm ngưng</translation>
    </message>
    <message>
        <location line="-81"/>
        <source>Pending setup</source>
        <translation>Chờ thiết lập</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rejected</source>
        <translation>Bị từ chối</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+80"/>
        <source>Deactivated</source>
        <translation>Đã vô hiệu hóa</translation>
    </message>
    <message>
        <location line="-79"/>
        <source>Registered</source>
        <translation>Đã đăng ký</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>System portal</source>
        <translation>Cổng hệ thống</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tenant portal</source>
        <translation>Cổng khách thuê</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Partner portal</source>
        <translation>Cổng đối tác</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Consumer portal</source>
        <translation>Cổng người tiêu dùng</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pending</source>
        <translation>Đang chờ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accepted</source>
        <translation>Đã chấp nhận</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Declined</source>
        <translation>Đã từ chối</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expired</source>
        <translation>Đã hết hạn</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelled</source>
        <translation>Đã hủy</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Inactive</source>
        <translation>Không hoạt động</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+54"/>
        <source>Enabled</source>
        <translation>Đang bật</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Disabled</source>
        <translation>Đang tắt</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Owner</source>
        <translation>Chủ sở hữu</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Custom</source>
        <translation>Tùy chỉnh</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>E-mail code</source>
        <translation>Mã qua email</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Authenticator app</source>
        <translation>Ứng dụng xác thực</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+26"/>
        <source>E-mail</source>
        <extracomment>Field names a person reads: the snapshot&apos;s columns, and the request bodies&apos; names the journal keeps (``accountRemark``), by name.</extracomment>
        <translation>Email</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>SMS</source>
        <translation>SMS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Webhook</source>
        <translation>Webhook</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>In the app</source>
        <translation>Trong ứng dụng</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Activated</source>
        <extracomment>What an account status action leads to, said as its result (&quot;Suspended&quot;).</extracomment>
        <translation>Đã kích hoạt</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Name</source>
        <translation>Tên</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>Trạng thái</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal</source>
        <translation>Cổng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution</source>
        <translation>Tổ chức</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>Ngôn ngữ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>Múi giờ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translation>Quốc gia</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remark</source>
        <translation>Ghi chú</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phone</source>
        <translation>Điện thoại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type</source>
        <translation>Loại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Description</source>
        <translation>Mô tả</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Permissions</source>
        <translation>Quyền</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Members</source>
        <translation>Thành viên</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expires</source>
        <translation>Hết hạn</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code</source>
        <translation>Mã</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Category</source>
        <translation>Danh mục</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Default</source>
        <translation>Mặc định</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Primary</source>
        <translation>Chính</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verified</source>
        <translation>Đã xác minh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist enforced</source>
        <translation>Áp dụng danh sách IP cho phép</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Backup codes</source>
        <translation>Mã dự phòng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Session settings</source>
        <translation>Cài đặt phiên</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Action</source>
        <translation>Thao tác</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason</source>
        <translation>Lý do</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Message</source>
        <translation>Lời nhắn</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Valid for (days)</source>
        <translation>Hiệu lực (ngày)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace</source>
        <translation>Không gian làm việc</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal type</source>
        <translation>Loại cổng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Domain</source>
        <translation>Tên miền</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP addresses</source>
        <translation>Địa chỉ IP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type code</source>
        <translation>Mã loại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type name</source>
        <translation>Tên loại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type description</source>
        <translation>Mô tả loại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type value</source>
        <translation>Giá trị loại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type status</source>
        <translation>Trạng thái loại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Display order</source>
        <translation>Thứ tự hiển thị</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Icon address</source>
        <translation>Địa chỉ biểu tượng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel name</source>
        <translation>Tên kênh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel category</source>
        <translation>Danh mục kênh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel status</source>
        <translation>Trạng thái kênh</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>Yes</source>
        <extracomment>Prefixes a request body puts before a field&apos;s own name (``accountRemark``: the remark). Which enumeration a field&apos;s values belong to, by field (the kind of row decides &quot;status&quot;). Which enumeration a ``status`` or ``type`` belongs to, by the kind of row (the diff&apos;s kinds). Fields whose values are yes or no.</extracomment>
        <translation>Có</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No</source>
        <translation>Không</translation>
    </message>
</context>
<context>
    <name>EnvironmentBanner</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/banner.py" line="+48"/>
        <source>built-in</source>
        <translation>tích hợp</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>READ-ONLY</source>
        <translation>CHỈ ĐỌC</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Environment</source>
        <translation>Môi trường</translation>
    </message>
</context>
<context>
    <name>EnvironmentType</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/store.py" line="+47"/>
        <source>PRODUCTION</source>
        <translation>CHÍNH THỨC</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>STAGING</source>
        <translation>STAGING</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TEST</source>
        <translation>KIỂM THỬ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SANDBOX</source>
        <translation>SANDBOX</translation>
    </message>
</context>
<context>
    <name>ErrorDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/error_dialog.py" line="+98"/>
        <source>Error</source>
        <translation>Lỗi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Error code:</source>
        <translation>Mã lỗi:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Request id:</source>
        <translation>Mã yêu cầu:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy details</source>
        <translation>Sao chép chi tiết</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy error details</source>
        <translation>Sao chép chi tiết lỗi</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error code</source>
        <translation>Mã lỗi</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Request id</source>
        <translation>Mã yêu cầu</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Technical details</source>
        <translation>Chi tiết kỹ thuật</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error summary</source>
        <translation>Tóm tắt lỗi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Error message</source>
        <translation>Thông báo lỗi</translation>
    </message>
</context>
<context>
    <name>ErrorInfo</name>
    <message>
        <location filename="../src/portal_admin/ui/error_info.py" line="+22"/>
        <source>You are not signed in, or your sign-in has expired.</source>
        <translation>Bạn chưa đăng nhập, hoặc phiên đăng nhập đã hết hạn.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your account does not have permission to do this.</source>
        <translation>Tài khoản của bạn không có quyền thực hiện thao tác này.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The item no longer exists.</source>
        <translation>Mục này không còn tồn tại.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The change conflicts with the current state on the server.</source>
        <translation>Thay đổi xung đột với trạng thái hiện tại trên máy chủ.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Too many requests. Please wait a moment and try again.</source>
        <translation>Quá nhiều yêu cầu. Vui lòng đợi một lát rồi thử lại.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server did not accept the input.</source>
        <translation>Máy chủ không chấp nhận dữ liệu nhập.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The encrypted Secure Channel to the server failed.</source>
        <translation>Kênh bảo mật được mã hóa tới máy chủ bị lỗi.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server could not complete the request.</source>
        <translation>Máy chủ không thể hoàn tất yêu cầu.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The server could not be reached.</source>
        <translation>Không kết nối được tới máy chủ.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server did not answer in time.</source>
        <translation>Máy chủ không phản hồi kịp thời.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A file or folder on this computer could not be used.</source>
        <translation>Không thể sử dụng một tệp hoặc thư mục trên máy tính này.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server address cannot be used: it must be http:// or https:// and a host name.</source>
        <extracomment>Profile settings the client or the doctor cannot use, by the client&apos;s error code.</extracomment>
        <translation>Không dùng được địa chỉ máy chủ: địa chỉ phải là http:// hoặc https:// kèm tên máy chủ.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The CA bundle file cannot be found or read. Check its path in the profile.</source>
        <translation>Không tìm thấy hoặc không đọc được tệp gói CA. Hãy kiểm tra đường dẫn trong hồ sơ.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A certificate pin cannot be used: it must be a SHA-256 fingerprint, with an https:// address. Check the profile&apos;s pins.</source>
        <translation>Không dùng được giá trị ghim chứng chỉ: phải là dấu vân tay SHA-256, với địa chỉ https://. Hãy kiểm tra các giá trị ghim của hồ sơ.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy address cannot be used: it must be http://host:port. Check the profile&apos;s proxy.</source>
        <translation>Không dùng được địa chỉ proxy: địa chỉ phải là http://máy:cổng. Hãy kiểm tra proxy của hồ sơ.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>This id cannot be used: an id has only letters, digits, &apos;-&apos;, &apos;_&apos; and &apos;.&apos;. Nothing was sent.</source>
        <extracomment>Failures with a cause of their own (connections, a refused id), by the client&apos;s error code.</extracomment>
        <translation>Không thể dùng ID này: ID chỉ gồm chữ cái, chữ số, &apos;-&apos;, &apos;_&apos; và &apos;.&apos;. Chưa có gì được gửi.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy asks for a user name and password, which this program does not have. Use the system proxy setting with them in HTTPS_PROXY, or ask your IT department.</source>
        <translation>Proxy yêu cầu tên người dùng và mật khẩu mà chương trình này không có. Hãy dùng cài đặt proxy của hệ thống với thông tin đó trong HTTPS_PROXY, hoặc hỏi bộ phận IT.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy refused to connect to the server. Check the profile&apos;s proxy.</source>
        <translation>Proxy đã từ chối kết nối tới máy chủ. Hãy kiểm tra proxy của hồ sơ.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server&apos;s certificate is not the one this profile pins: nothing was sent. Ask your IT department whether the certificate was renewed.</source>
        <translation>Chứng chỉ của máy chủ không phải chứng chỉ mà hồ sơ này ghim: chưa gửi gì cả. Hãy hỏi bộ phận IT xem chứng chỉ có được gia hạn không.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>A gateway or proxy answered instead of the server (HTTP %1): the server behind it is down or cannot be reached from it. Try again later, or tell the server&apos;s administrators.</source>
        <extracomment>A gateway or proxy answered instead of the server (the client&apos;s ``GatewayError``); %1 is the HTTP status.</extracomment>
        <translation>Một gateway hoặc proxy đã trả lời thay cho máy chủ (HTTP %1): máy chủ phía sau gateway đang ngừng hoặc gateway không tới được nó. Hãy thử lại sau, hoặc báo cho quản trị viên máy chủ.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Something unexpected went wrong in the program.</source>
        <translation>Đã xảy ra lỗi không mong muốn trong chương trình.</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Error code</source>
        <extracomment>True for failures the program did not foresee (a bug): shown with their details.</extracomment>
        <translation>Mã lỗi</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Request id</source>
        <translation>Mã yêu cầu</translation>
    </message>
</context>
<context>
    <name>ErrorLine</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/error_line.py" line="+129"/>
        <source>Copy</source>
        <extracomment>The failure shown (None: nothing, or a message without a failure behind it).</extracomment>
        <translation>Sao chép</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy the error, its code and request id</source>
        <translation>Sao chép lỗi, mã lỗi và mã yêu cầu</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error</source>
        <translation>Lỗi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server message</source>
        <translation>Thông báo từ máy chủ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error code and request id</source>
        <translation>Mã lỗi và mã yêu cầu</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Error code</source>
        <translation>Mã lỗi</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Request id</source>
        <translation>Mã yêu cầu</translation>
    </message>
</context>
<context>
    <name>EvidencePack</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/packing.py" line="+179"/>
        <source>Evidence pack written to %1, signed by the key %2.</source>
        <translation>Đã ghi gói bằng chứng vào %1, ký bằng khóa %2.</translation>
    </message>
</context>
<context>
    <name>EvidenceReport</name>
    <message>
        <location line="-147"/>
        <source>Snapshot</source>
        <extracomment>Builds (kind, tables, summary) for a pack, in the worker thread. The names a pack&apos;s report shows (its kind, summary keys, tables and columns) that the program&apos;s field labels (``enum_labels.field_label``) do not already name.</extracomment>
        <translation>Ảnh chụp</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Comparison of two snapshots</source>
        <translation>So sánh hai ảnh chụp</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Journal</source>
        <translation>Nhật ký</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Records</source>
        <translation>Bản ghi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Since</source>
        <translation>Từ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Until</source>
        <translation>Đến</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter</source>
        <translation>Bộ lọc</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Journal head</source>
        <translation>Đầu nhật ký</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Journal intact</source>
        <translation>Nhật ký nguyên vẹn</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed checkpoints</source>
        <translation>Điểm kiểm tra đã ký</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Snapshot of</source>
        <translation>Ảnh chụp của</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connection profile</source>
        <translation>Hồ sơ kết nối</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Taken by</source>
        <translation>Người chụp</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Started</source>
        <translation>Bắt đầu</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Finished</source>
        <translation>Kết thúc</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Program version</source>
        <translation>Phiên bản chương trình</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Older snapshot</source>
        <translation>Ảnh chụp cũ hơn</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Newer snapshot</source>
        <translation>Ảnh chụp mới hơn</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signing key</source>
        <translation>Khóa ký</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Accounts</source>
        <translation>Tài khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roles</source>
        <translation>Vai trò</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitations</source>
        <translation>Lời mời</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist</source>
        <translation>Danh sách IP cho phép</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Multi-factor authentication</source>
        <translation>Xác thực đa yếu tố</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel types</source>
        <translation>Loại kênh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notification channels</source>
        <translation>Kênh thông báo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Constants</source>
        <translation>Hằng số</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Changes</source>
        <translation>Thay đổi</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Number</source>
        <translation>Số thứ tự</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Segment</source>
        <translation>Phân đoạn</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>Loại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time</source>
        <translation>Thời gian</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server time</source>
        <translation>Giờ máy chủ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server</source>
        <translation>Máy chủ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Operation</source>
        <translation>Thao tác</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Targets</source>
        <translation>Đối tượng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fields</source>
        <translation>Trường</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>Trước</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>Sau</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outcome</source>
        <translation>Kết quả</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Request id</source>
        <translation>Mã yêu cầu</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTTP status</source>
        <translation>Trạng thái HTTP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Intent number</source>
        <translation>Số thứ tự ý định</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hash</source>
        <translation>Mã băm</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous hash</source>
        <translation>Mã băm trước</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key</source>
        <translation>Khóa</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Public key</source>
        <translation>Khóa công khai</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signature</source>
        <translation>Chữ ký</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Format</source>
        <translation>Định dạng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>Ngày tạo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Updated</source>
        <translation>Ngày cập nhật</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inviter</source>
        <translation>Người mời</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace</source>
        <translation>Không gian làm việc</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Entry</source>
        <translation>Mục</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>List</source>
        <translation>Danh sách</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Value</source>
        <translation>Giá trị</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Label</source>
        <translation>Nhãn</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change</source>
        <translation>Thay đổi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Field</source>
        <translation>Trường</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Field (label)</source>
        <translation>Trường (nhãn)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before (label)</source>
        <translation>Trước (nhãn)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After (label)</source>
        <translation>Sau (nhãn)</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Evidence pack: %1</source>
        <extracomment>The names the program&apos;s field labels already name (translated in ``enum_labels``). Columns of the snapshot tables whose codes the program labels, by the kind of row. The summary keys and columns whose values are not labelled (free text, hashes, times).</extracomment>
        <translation>Gói bằng chứng: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 rows</source>
        <translation>%1 dòng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the first %1 shown, all in %2</source>
        <translation>hiển thị %1 dòng đầu, toàn bộ trong %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>yes</source>
        <translation>có</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no</source>
        <translation>không</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/lists/export_dialog.py" line="+92"/>
        <location line="+11"/>
        <source>Export to CSV</source>
        <translation>Xuất ra CSV</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>CSV files (*.csv)</source>
        <translation>Tệp CSV (*.csv)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;File:</source>
        <translation>&amp;Tệp:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Delimiter:</source>
        <translation>&amp;Dấu phân cách:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Browse…</source>
        <translation>Duyệt…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Comma (,)</source>
        <translation>Dấu phẩy (,)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Semicolon (;)</source>
        <translation>Dấu chấm phẩy (;)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tab</source>
        <translation>Tab</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Export file</source>
        <translation>Tệp xuất</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose the export file</source>
        <translation>Chọn tệp xuất</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delimiter</source>
        <translation>Dấu phân cách</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Exporting</source>
        <translation>Đang xuất</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export progress</source>
        <translation>Tiến trình xuất</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Exported %1 of %2 rows…</source>
        <translation>Đã xuất %1 / %2 dòng…</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+24"/>
        <source>Open folder</source>
        <translation>Mở thư mục</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Export finished</source>
        <translation>Đã xuất xong</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%n row(s) exported to %1.</source>
        <translation>Đã xuất %n dòng vào %1.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open the folder of the exported file</source>
        <translation>Mở thư mục chứa tệp đã xuất</translation>
    </message>
</context>
<context>
    <name>FileWork</name>
    <message>
        <location filename="../src/portal_admin/ui/file_work.py" line="+32"/>
        <source>The file cannot be read: it is damaged, or it is not a file this program writes.</source>
        <translation>Không đọc được tệp: tệp bị hỏng, hoặc không phải tệp do chương trình này ghi.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The file is in use by another window or by the command line. Try again later.</source>
        <translation>Tệp đang được một cửa sổ khác hoặc dòng lệnh sử dụng. Hãy thử lại sau.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing can be signed: this installation&apos;s signing key cannot be read.</source>
        <translation>Không thể ký gì cả: không đọc được khóa ký của bản cài đặt này.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The key is kept in the system keyring or, without one, in a key file only you can read. If that file has a passphrase, start the program with PORTAL_ADMIN_KEY_PASSPHRASE set. Help &gt; About says where the key is.</source>
        <translation>Khóa được lưu trong keyring của hệ thống hoặc, khi không có keyring, trong một tệp khóa chỉ bạn đọc được. Nếu tệp đó có cụm mật khẩu, hãy khởi động chương trình với PORTAL_ADMIN_KEY_PASSPHRASE đã được đặt. Trợ giúp &gt; Giới thiệu cho biết khóa nằm ở đâu.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The file work did not end within %1 seconds.</source>
        <translation>Thao tác trên tệp không kết thúc trong vòng %1 giây.</translation>
    </message>
</context>
<context>
    <name>InvitationColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/models.py" line="+29"/>
        <source>Invitee email</source>
        <translatorcomment>Used at run time but not found by lupdate (views/invitations/models.py:37)</translatorcomment>
        <translation>Email người được mời</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+57"/>
        <source>Inviter</source>
        <translatorcomment>Used at run time but not found by lupdate (views/invitations/models.py:44)</translatorcomment>
        <translation>Người mời</translation>
    </message>
    <message>
        <location line="-50"/>
        <location line="+57"/>
        <source>Status</source>
        <translatorcomment>Used at run time but not found by lupdate (views/invitations/models.py:51)</translatorcomment>
        <translation>Trạng thái</translation>
    </message>
    <message>
        <location line="-50"/>
        <location line="+72"/>
        <source>Message</source>
        <translatorcomment>Used at run time but not found by lupdate (views/invitations/models.py:58)</translatorcomment>
        <translation>Lời nhắn</translation>
    </message>
    <message>
        <location line="-65"/>
        <location line="+50"/>
        <source>Expires</source>
        <translatorcomment>Used at run time but not found by lupdate (views/invitations/models.py:65)</translatorcomment>
        <translation>Hết hạn</translation>
    </message>
    <message>
        <location line="-42"/>
        <location line="+63"/>
        <source>Created</source>
        <translatorcomment>Used at run time but not found by lupdate (views/invitations/models.py:73)</translatorcomment>
        <translation>Ngày tạo</translation>
    </message>
    <message>
        <location line="-55"/>
        <source>Id</source>
        <translatorcomment>Used at run time but not found by lupdate (views/invitations/models.py:81)</translatorcomment>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Workspace</source>
        <translatorcomment>Used at run time but not found by lupdate (views/invitations/models.py:94)</translatorcomment>
        <translation>Không gian làm việc</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Can be accepted</source>
        <translatorcomment>Used at run time but not found by lupdate (views/invitations/models.py:123)</translatorcomment>
        <translation>Có thể chấp nhận</translation>
    </message>
</context>
<context>
    <name>InvitationDialogs</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/dialogs.py" line="+47"/>
        <source>Enter the email address of the person to invite.</source>
        <extracomment>The bounds the wire description states (``protocol.bodies``): 1 to 30 days, default 7.</extracomment>
        <translation>Nhập địa chỉ email của người được mời.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The email address is longer than %1 characters.</source>
        <translation>Địa chỉ email dài quá %1 ký tự.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>This is not a valid email address (expected name@example.com).</source>
        <translation>Đây không phải địa chỉ email hợp lệ (dạng ten@example.com).</translation>
    </message>
    <message>
        <location line="+111"/>
        <source>The message is longer than %1 characters.</source>
        <extracomment>The person pressed Invite with valid input: the panel sends it.</extracomment>
        <translation>Lời nhắn dài quá %1 ký tự.</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>%1 / %2 characters</source>
        <translation>%1 / %2 ký tự</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Invite someone</source>
        <translation>Mời một người</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Email:</source>
        <translation>&amp;Email:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Message:</source>
        <translation>&amp;Lời nhắn:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>E&amp;xpires after:</source>
        <translation>&amp;Hết hạn sau:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> days</source>
        <translation> ngày</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Between %1 and %2 days</source>
        <translation>Từ %1 đến %2 ngày</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Invitee email</source>
        <translation>Email người được mời</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Invitation message</source>
        <translation>Lời nhắn kèm lời mời</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Optional message shown in the invitation email</source>
        <translation>Lời nhắn tùy chọn hiển thị trong email mời</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Expiration in days</source>
        <translation>Thời hạn (ngày)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Invite</source>
        <translation>Mời</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Send invitation</source>
        <translation>Gửi lời mời</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cancel</source>
        <translation>Hủy</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Email problem</source>
        <translation>Vấn đề về email</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Server error</source>
        <translation>Lỗi máy chủ</translation>
    </message>
    <message>
        <location line="+58"/>
        <location line="+33"/>
        <location line="+3"/>
        <source>Cancel invitation</source>
        <translation>Hủy lời mời</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>Cancel the invitation to %1? They will no longer be able to accept it. This cannot be undone.</source>
        <translation>Hủy lời mời gửi tới %1? Người đó sẽ không thể chấp nhận lời mời nữa. Không thể hoàn tác thao tác này.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>This changes the %1 server “%2”.</source>
        <translation>Thao tác này thay đổi máy chủ %1 “%2”.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Reason (optional):</source>
        <translation>&amp;Lý do (không bắt buộc):</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Reason for cancelling</source>
        <translation>Lý do hủy</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>For example: sent to the wrong address</source>
        <translation>Ví dụ: gửi nhầm địa chỉ</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+2"/>
        <source>Keep invitation</source>
        <translation>Giữ lời mời</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Question</source>
        <translation>Câu hỏi</translation>
    </message>
</context>
<context>
    <name>Invitations</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/models.py" line="+25"/>
        <source>Yes</source>
        <translation>Có</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/formatting.py" line="+34"/>
        <location line="+56"/>
        <location line="+4"/>
        <source>expired</source>
        <translation>đã hết hạn</translation>
    </message>
    <message>
        <location line="-57"/>
        <source>in %n day(s)</source>
        <translation>còn %n ngày</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>in %n hour(s)</source>
        <translation>còn %n giờ</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>in %n minute(s)</source>
        <translation>còn %n phút</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>cancelled</source>
        <translation>đã hủy</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>declined</source>
        <translation>đã từ chối</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>already accepted</source>
        <translation>đã được chấp nhận</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not open</source>
        <translation>không còn mở</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cannot be accepted: %1</source>
        <translation>Không thể chấp nhận: %1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/panel.py" line="+202"/>
        <source>Select a pending invitation to cancel it.</source>
        <translation>Chọn một lời mời đang chờ để hủy.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Only pending invitations can be cancelled; this one is %1.</source>
        <translation>Chỉ có thể hủy lời mời đang chờ; lời mời này có trạng thái %1.</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Inviting is not possible: %1</source>
        <translation>Không thể mời: %1</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>Could not invite</source>
        <translation>Không thể gửi lời mời</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Could not cancel the invitation to %1</source>
        <translation>Không thể hủy lời mời gửi tới %1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>There are no invitations yet.</source>
        <translation>Chưa có lời mời nào.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No invitations match these filters.</source>
        <translation>Không có lời mời nào khớp với bộ lọc này.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>All statuses</source>
        <translation>Mọi trạng thái</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Status:</source>
        <translation>&amp;Trạng thái:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Status filter</source>
        <translation>Bộ lọc trạng thái</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter by email, inviter or message</source>
        <translation>Lọc theo email, người mời hoặc lời nhắn</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Text filter</source>
        <translation>Bộ lọc văn bản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invite…</source>
        <translation>Mời…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Invite someone</source>
        <translation>Mời một người</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cancel invitation…</source>
        <translation>Hủy lời mời…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cancel the selected invitation</source>
        <translation>Hủy lời mời đã chọn</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Why actions are disabled</source>
        <translation>Lý do các thao tác bị vô hiệu</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Invitations</source>
        <translation>Lời mời</translation>
    </message>
</context>
<context>
    <name>IpWhitelistPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/ip_entry_delegate.py" line="+44"/>
        <location filename="../src/portal_admin/ui/panels/security/ip_whitelist_model.py" line="+34"/>
        <source>Address or network</source>
        <translation>Địa chỉ hoặc mạng</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/ip_whitelist_model.py" line="+1"/>
        <source>Kind</source>
        <translation>Loại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Added</source>
        <translation>Ngày thêm</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>IPv4 address</source>
        <translation>Địa chỉ IPv4</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IPv6 address</source>
        <translation>Địa chỉ IPv6</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IPv4 network (CIDR)</source>
        <translation>Mạng IPv4 (CIDR)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IPv6 network (CIDR)</source>
        <translation>Mạng IPv6 (CIDR)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Enter an address or a network.</source>
        <translation>Nhập một địa chỉ hoặc một mạng.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Too long for an address.</source>
        <translation>Quá dài so với một địa chỉ.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Host bits are set: use the network address.</source>
        <translation>Các bit phần host đang được đặt: hãy dùng địa chỉ mạng.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The prefix length is not valid.</source>
        <translation>Độ dài tiền tố không hợp lệ.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not an IPv4 or IPv6 address or CIDR network.</source>
        <translation>Không phải địa chỉ IPv4, IPv6 hay mạng CIDR.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/ip_whitelist.py" line="+211"/>
        <source>%1 entries are not valid: correct or remove them to save.</source>
        <translation>%1 mục không hợp lệ: hãy sửa hoặc xóa chúng để lưu.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>1 entry is not valid: correct or remove it to save.</source>
        <translation>1 mục không hợp lệ: hãy sửa hoặc xóa mục đó để lưu.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Unsaved changes.</source>
        <translation>Có thay đổi chưa lưu.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The whitelist is enabled: only the addresses below may sign in.</source>
        <translation>Danh sách IP được phép đang bật: chỉ các địa chỉ dưới đây được đăng nhập.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The whitelist is disabled: every address may sign in.</source>
        <translation>Danh sách IP được phép đang tắt: mọi địa chỉ đều được đăng nhập.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The address you connect from is not known.</source>
        <translation>Không xác định được địa chỉ bạn đang kết nối.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>You connect from %1, which the whitelist contains.</source>
        <translation>Bạn đang kết nối từ %1, địa chỉ này có trong danh sách.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>You connect from %1, which the whitelist does not contain.</source>
        <translation>Bạn đang kết nối từ %1, địa chỉ này không có trong danh sách.</translation>
    </message>
    <message>
        <location line="+51"/>
        <location line="+37"/>
        <source>Change the IP whitelist.</source>
        <translation>Thay đổi danh sách IP được phép.</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>(unknown)</source>
        <translation>(không rõ)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>You may lock yourself out</source>
        <translation>Bạn có thể tự khóa mình</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The whitelist does not contain %1, the address you connect from. Once it is enforced, the server may refuse this program: you may lock yourself out. Continue anyway?</source>
        <translation>Danh sách không chứa %1, địa chỉ bạn đang kết nối. Khi danh sách được áp dụng, máy chủ có thể từ chối chương trình này: bạn có thể tự khóa mình bên ngoài. Vẫn tiếp tục?</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Continue anyway</source>
        <translation>Vẫn tiếp tục</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Could not save the IP whitelist</source>
        <translation>Không thể lưu danh sách IP được phép</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Could not enable the IP whitelist</source>
        <translation>Không thể bật danh sách IP được phép</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Disable the IP whitelist.</source>
        <translation>Tắt danh sách IP được phép.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Could not disable the IP whitelist</source>
        <translation>Không thể tắt danh sách IP được phép</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>&amp;Enable</source>
        <translation>&amp;Bật</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Enable the whitelist</source>
        <translation>Bật danh sách</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Disable</source>
        <translation>&amp;Tắt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Disable the whitelist</source>
        <translation>Tắt danh sách</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Whitelist entries</source>
        <translation>Các mục trong danh sách</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>IPv4 or IPv6 address, or CIDR network</source>
        <translation>Địa chỉ IPv4 hoặc IPv6, hoặc mạng CIDR</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New entry</source>
        <translation>Mục mới</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Add</source>
        <translation>Thê&amp;m</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add the entry</source>
        <translation>Thêm mục</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New entry check</source>
        <translation>Kiểm tra mục mới</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Remove</source>
        <translation>&amp;Xóa</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Remove the selected entry</source>
        <translation>Xóa mục đã chọn</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rever&amp;t</source>
        <translation>&amp;Hoàn tác</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Discard the changes</source>
        <translation>Hủy bỏ các thay đổi</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Save</source>
        <translation>&amp;Lưu</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save the whitelist</source>
        <translation>Lưu danh sách</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Whitelist state</source>
        <translation>Trạng thái danh sách</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your address</source>
        <translation>Địa chỉ của bạn</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Entry problems</source>
        <translation>Vấn đề của các mục</translation>
    </message>
</context>
<context>
    <name>JobsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/panel.py" line="+37"/>
        <source>Job</source>
        <translation>Công việc</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Action</source>
        <translation>Thao tác</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>Trạng thái</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Done</source>
        <translation>Xong</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>Thất bại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skipped</source>
        <translation>Bỏ qua</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Left</source>
        <translation>Còn lại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>Tạo lúc</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>Tài khoản</translation>
    </message>
    <message>
        <location line="+126"/>
        <source>Select one job.</source>
        <extracomment>One job as the panel lists it. A job file that cannot be opened (damaged, removed, another user&apos;s) is said here.</extracomment>
        <translation>Hãy chọn một tác vụ.</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>Bulk changes made from this computer. A paused or interrupted job can be resumed: targets whose outcome was not known are read back first, so nothing is changed twice.</source>
        <translation>Các thay đổi hàng loạt thực hiện từ máy tính này. Có thể tiếp tục công việc đã tạm dừng hoặc bị gián đoạn: các đối tượng chưa rõ kết quả sẽ được đọc lại trước, nên không có gì bị thay đổi hai lần.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Refresh</source>
        <translation>Làm mới</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Resume</source>
        <translation>&amp;Tiếp tục</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Show…</source>
        <translation>&amp;Xem…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rever&amp;t the job…</source>
        <translation>&amp;Hoàn nguyên công việc…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bulk jobs</source>
        <translation>Công việc hàng loạt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Job files: %1</source>
        <translation>Tệp công việc: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Jobs</source>
        <translation>Công việc</translation>
    </message>
</context>
<context>
    <name>JournalPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/journal_panel.py" line="+49"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time</source>
        <translation>Thời gian</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>Tài khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Operation</source>
        <translation>Thao tác</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Targets</source>
        <translation>Đối tượng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change</source>
        <translation>Thay đổi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outcome</source>
        <translation>Kết quả</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code</source>
        <translation>Mã</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Request id</source>
        <translation>Mã yêu cầu</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/operation_titles.py" line="+23"/>
        <source>Succeeded</source>
        <extracomment>A journal record&apos;s outcome, by its code (the Journal panel&apos;s words, its packs&apos; too).</extracomment>
        <translation>Thành công</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refused</source>
        <translation>Bị từ chối</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown</source>
        <translation>Không rõ</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/journal_panel.py" line="+29"/>
        <source>Sent, outcome not recorded</source>
        <extracomment>Rows shown at most (the newest); exports write every matching record. Account names asked of the server at most per reading of the journal. An intent whose outcome record is missing: the program stopped before the answer.</extracomment>
        <translation>Đã gửi, chưa ghi nhận kết quả</translation>
    </message>
    <message>
        <location line="+276"/>
        <source>The journal is empty: no change was sent from this computer.</source>
        <extracomment>Account ids -&gt; names, read from the signed-in server (&quot;&quot; when it has none).</extracomment>
        <translation>Nhật ký trống: chưa có thay đổi nào được gửi từ máy tính này.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The chain verifies: %1 records, head %2.</source>
        <translation>Chuỗi hợp lệ: %1 bản ghi, đầu chuỗi %2.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 new segment(s) after a cut-off record (a crash).</source>
        <translation>%1 đoạn mới sau một bản ghi bị cắt (do sự cố).</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>But %1 record(s) are not authenticated (the first: record %2): no checkpoint of this installation vouches for them and this program did not write them. A revert leaves them alone unless their job file confirms them.</source>
        <translation>Nhưng %1 bản ghi chưa được xác thực (bản đầu tiên: bản ghi %2): không điểm kiểm tra nào của bản cài đặt này bảo đảm cho chúng và chương trình này không ghi chúng. Việc hoàn nguyên để nguyên chúng trừ khi tệp công việc của chúng xác nhận chúng.</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The journal does not match its signed checkpoints: %1.</source>
        <translation>Nhật ký không khớp với các điểm kiểm tra đã ký: %1.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The chain is BROKEN at line %1 (record %2): %3.</source>
        <translation>Chuỗi BỊ HỎNG tại dòng %1 (bản ghi %2): %3.</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>%1 records written to %2.</source>
        <translation>Đã ghi %1 bản ghi vào %2.</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Filter by account, operation or id</source>
        <translation>Lọc theo tài khoản, thao tác hoặc mã</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Journal filter</source>
        <translation>Bộ lọc nhật ký</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All outcomes</source>
        <translation>Mọi kết quả</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Outcome filter</source>
        <translation>Bộ lọc kết quả</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refresh</source>
        <translation>Làm mới</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Read the journal again (F5)</source>
        <translation>Đọc lại nhật ký (F5)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export CSV…</source>
        <translation>Xuất CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export JSON…</source>
        <translation>Xuất JSON…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence pack…</source>
        <translation>Gói bằng chứng…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Revert…</source>
        <translation>&amp;Hoàn nguyên…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set the selected changes back to their values before</source>
        <translation>Đưa các thay đổi đã chọn về giá trị trước đó</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A signed zip of the records shown: CSV and a report</source>
        <translation>Tệp zip đã ký của các bản ghi đang hiển thị: CSV và báo cáo</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Journal of changes</source>
        <translation>Nhật ký thay đổi</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Journal</source>
        <translation>Nhật ký</translation>
    </message>
</context>
<context>
    <name>KeyNotice</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/key_notice.py" line="+97"/>
        <source>Got it</source>
        <extracomment>Beside the key file: the key file&apos;s path once the person has been told of it.</extracomment>
        <translation>Đã hiểu</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This computer has no usable keyring, so the key that signs your evidence packs, review decisions and journal checkpoints is kept in a file only you can read: %1. Whoever can read that file can sign as this installation: keep it, and its backups, to yourself. Help &gt; About shows it again.</source>
        <translation>Máy tính này không có keyring dùng được, nên khóa ký các gói bằng chứng, quyết định rà soát và điểm kiểm tra nhật ký của bạn được lưu trong một tệp chỉ bạn đọc được: %1. Ai đọc được tệp đó đều có thể ký thay cho bản cài đặt này: hãy giữ tệp và các bản sao lưu của nó cho riêng mình. Trợ giúp &gt; Giới thiệu sẽ hiển thị lại thông tin này.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Where the signing key is kept</source>
        <translation>Nơi lưu khóa ký</translation>
    </message>
</context>
<context>
    <name>KioskMarking</name>
    <message>
        <location filename="../src/portal_admin/ui/kiosk/marking.py" line="+64"/>
        <source>Read-only · %1</source>
        <extracomment>Height of the watermark strip added below a screenshot, in pixels (device independent). Below this width the strip has two lines (time, then account) and is at least this wide.</extracomment>
        <translation>Chỉ đọc · %1</translation>
    </message>
</context>
<context>
    <name>ListView</name>
    <message>
        <location filename="../src/portal_admin/ui/lists/paged_list.py" line="+121"/>
        <source>Retry</source>
        <extracomment>How many rows fitting a column to its contents looks at (those on screen first). From this width (px) the detail pane sits beside the list; under it, below the list. The narrowest a fitted column gets to spare a horizontal scroll bar (px). Qt&apos;s &quot;no limit&quot; for a widget&apos;s size. The state&apos;s icon, above the text (``set_icon``). &quot;Clear filters&quot;, shown when filters hide every row. The panel&apos;s own first step on an empty list (``PagedList.set_empty_action``).</extracomment>
        <translation>Thử lại</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Retry loading the list</source>
        <translation>Thử tải lại danh sách</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>List state</source>
        <translation>Trạng thái danh sách</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Clear filters</source>
        <translation>Xóa bộ lọc</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Clear the filters of the list</source>
        <translation>Xóa bộ lọc của danh sách</translation>
    </message>
    <message>
        <location line="+334"/>
        <source>Export failed</source>
        <extracomment>The row object of the current row, or None. Enter or a double click on a row: the row object (open its detail). Delete: the selected row objects (start the delete action, with its confirmation). F2: the current row object (edit it). True once the person chose column widths (or a view brought some): not fitted then. The context menu, copies and keys (``ui/lists/table_actions.py``). Fits the columns again once a resize (a maximised window) has settled.</extracomment>
        <translation>Xuất thất bại</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>Columns</source>
        <translation>Cột</translation>
    </message>
    <message>
        <location line="+148"/>
        <location filename="../src/portal_admin/ui/lists/table_actions.py" line="+288"/>
        <source>Copy</source>
        <translation>Sao chép</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/lists/table_actions.py" line="-48"/>
        <source>Copy id</source>
        <translation>Sao chép ID</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>Row actions</source>
        <extracomment>The translation context of the menu&apos;s texts (they began in the list widget, then ``ListView``). Enter or a double click on a row: the row object (open it, or do its main thing). Delete: the chosen row objects (start the delete action, with its confirmation). F2: the current row object (edit it).</extracomment>
        <translation>Thao tác với hàng</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Copy cell</source>
        <translation>Sao chép ô</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy rows as text</source>
        <translation>Sao chép các hàng dạng văn bản</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy row as text</source>
        <translation>Sao chép hàng dạng văn bản</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Copy rows as CSV</source>
        <translation>Sao chép các hàng dạng CSV</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy row as CSV</source>
        <translation>Sao chép hàng dạng CSV</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Copy ids</source>
        <translation>Sao chép các mã</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/lists/paged_list.py" line="-107"/>
        <source>Loading…</source>
        <translation>Đang tải…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Nothing to show.</source>
        <translation>Không có gì để hiển thị.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing matches these filters.</source>
        <translation>Không có gì khớp với bộ lọc này.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The list could not be loaded.</source>
        <translation>Không thể tải danh sách.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Error code: %1</source>
        <translation>Mã lỗi: %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Request id: %1</source>
        <translation>Mã yêu cầu: %1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Showing %1 of %2</source>
        <translation>Đang hiển thị %1 / %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Loading more…</source>
        <translation>Đang tải thêm…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%n selected</source>
        <translation>Đã chọn %n</translation>
    </message>
    <message>
        <location line="+34"/>
        <location line="+4"/>
        <source>Refresh</source>
        <translation>Làm mới</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Reload the list (F5)</source>
        <translation>Tải lại danh sách (F5)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Export CSV…</source>
        <translation>Xuất CSV…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export every row of this view to a CSV file</source>
        <translation>Xuất mọi dòng của chế độ xem này ra tệp CSV</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export CSV</source>
        <translation>Xuất CSV</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+20"/>
        <source>List</source>
        <translation>Danh sách</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>List status</source>
        <translation>Trạng thái danh sách</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filters</source>
        <translation>Bộ lọc</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Saved views: filters, sort and columns kept on this computer</source>
        <translation>Chế độ xem đã lưu: bộ lọc, thứ tự sắp xếp và các cột được giữ trên máy tính này</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Views</source>
        <translation>Chế độ xem</translation>
    </message>
</context>
<context>
    <name>LoginHistoryPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/history.py" line="+50"/>
        <source>All results</source>
        <extracomment>Result filter choices: (key, server value, source text).</extracomment>
        <translation>Mọi kết quả</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Successful</source>
        <translation>Thành công</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>Thất bại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blocked</source>
        <translation>Bị chặn</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Time</source>
        <translation>Thời gian</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Result</source>
        <translation>Kết quả</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Client IP</source>
        <translation>IP máy khách</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Device</source>
        <translation>Thiết bị</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Failure reason</source>
        <translation>Lý do thất bại</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>User agent</source>
        <translation>User agent</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+199"/>
        <source>Show as chart</source>
        <translation>Hiện dạng biểu đồ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show as table</source>
        <translation>Hiện dạng bảng</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Switches between the chart and a table of its numbers</source>
        <translation>Chuyển giữa biểu đồ và bảng số liệu của nó</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Loading the chart…</source>
        <translation>Đang tải biểu đồ…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The chart shows the latest %1 of %2 sign-ins.</source>
        <translation>Biểu đồ hiển thị %1 lượt đăng nhập gần nhất trong tổng số %2.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Based on all %1 sign-ins of this filter.</source>
        <translation>Dựa trên toàn bộ %1 lượt đăng nhập của bộ lọc này.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No sign-ins recorded yet.</source>
        <translation>Chưa có lượt đăng nhập nào được ghi lại.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No sign-ins match these filters.</source>
        <translation>Không có lượt đăng nhập nào khớp với bộ lọc này.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Result:</source>
        <translation>&amp;Kết quả:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Login result</source>
        <translation>Kết quả đăng nhập</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>From</source>
        <translation>Từ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>To</source>
        <translation>Đến</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>From date</source>
        <translation>Từ ngày</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>To date</source>
        <translation>Đến ngày</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+2"/>
        <source>Sign-ins per day</source>
        <translation>Lượt đăng nhập mỗi ngày</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Chart note</source>
        <translation>Ghi chú biểu đồ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sign-ins per day, as a table</source>
        <translation>Lượt đăng nhập mỗi ngày, dạng bảng</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Login history</source>
        <translation>Lịch sử đăng nhập</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/lock.py" line="+58"/>
        <location line="+10"/>
        <source>Locked</source>
        <translation>Đã khóa</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>The window was locked. Sign in again to continue; your work is kept.</source>
        <translation>Đăng nhập lại để tiếp tục; công việc của bạn vẫn được giữ nguyên.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Sign in again…</source>
        <translation>Đăng nhập lại…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sign in again to unlock</source>
        <translation>Đăng nhập lại để mở khóa</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/window.py" line="+410"/>
        <source>The panel “%1” could not be opened.</source>
        <extracomment>A language code from the View &gt; Language menu. Emitted when the window closes (the application then quits). Kiosk mode: the idle time ran out; the session is to be signed out. The kiosk settings (None outside kiosk mode). Once per key file: where the evidence-signing key is kept (no keyring).</extracomment>
        <translation>Không thể mở bảng “%1”.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="+77"/>
        <source>No keyring: the sign-in is kept in memory only</source>
        <extracomment>Shown when no keyring can keep the sign-in: it lasts only while the program runs.</extracomment>
        <translation>Không có keyring: đăng nhập chỉ lưu trong bộ nhớ</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/window.py" line="+90"/>
        <source>Not signed in</source>
        <translation>Chưa đăng nhập</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Signed-in account</source>
        <translation>Tài khoản đang đăng nhập</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>System Portal Admin — %1</source>
        <translation>System Portal Admin — %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>System Portal Admin</source>
        <translation>System Portal Admin</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Log &amp;out</source>
        <translation>Đăng &amp;xuất</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Log out</source>
        <translation>Đăng xuất</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sign &amp;out</source>
        <translation>Đăng &amp;xuất</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sign out</source>
        <translation>Đăng xuất</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>READ-ONLY SESSION — nothing can be changed here</source>
        <translation>PHIÊN CHỈ ĐỌC — không thể thay đổi gì tại đây</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Read-only session</source>
        <translation>Phiên chỉ đọc</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Lock</source>
        <translation>&amp;Khóa</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Quit</source>
        <translation>&amp;Thoát</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Refresh</source>
        <translation>&amp;Làm mới</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Command &amp;palette…</source>
        <translation>Bảng &amp;lệnh…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;File</source>
        <translation>Tệ&amp;p</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change &amp;password…</source>
        <translation>Đổi &amp;mật khẩu…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;About…</source>
        <translation>&amp;Giới thiệu…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Help</source>
        <translation>Trợ &amp;giúp</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Language</source>
        <translation>&amp;Ngôn ngữ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;View</source>
        <translation>X&amp;em</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Panels</source>
        <translation>Bảng</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Panel</source>
        <translation>Bảng</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose a panel on the left.</source>
        <translation>Chọn một bảng ở bên trái.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="+15"/>
        <source>Connection state</source>
        <translation>Trạng thái kết nối</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Secure Channel state</source>
        <translation>Trạng thái kênh bảo mật</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Last request id:</source>
        <translation>Mã yêu cầu gần nhất:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Last request id</source>
        <translation>Mã yêu cầu gần nhất</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>none yet</source>
        <translation>chưa có</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Working</source>
        <translation>Đang xử lý</translation>
    </message>
</context>
<context>
    <name>MessageBar</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/message_bar.py" line="+69"/>
        <source>Error code: %1</source>
        <translation>Mã lỗi: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Request id: %1</source>
        <translation>Mã yêu cầu: %1</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Message</source>
        <translation>Thông báo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Message summary</source>
        <translation>Tóm tắt thông báo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Message details</source>
        <translation>Chi tiết thông báo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dismiss</source>
        <translation>Ẩn</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Dismiss the message</source>
        <translation>Ẩn thông báo</translation>
    </message>
</context>
<context>
    <name>MfaPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/mfa.py" line="+50"/>
        <source>Method</source>
        <translation>Phương thức</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enabled</source>
        <translation>Đã bật</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Primary</source>
        <translation>Chính</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verified</source>
        <translation>Đã xác minh</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Not verified</source>
        <translation>Chưa xác minh</translation>
    </message>
    <message>
        <location line="+116"/>
        <source>The authenticator is not set up.</source>
        <translation>Chưa thiết lập ứng dụng xác thực.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>No backup codes have been generated.</source>
        <translation>Chưa tạo mã dự phòng nào.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 of %2 backup codes remaining</source>
        <translation>Còn %1 / %2 mã dự phòng</translation>
    </message>
    <message>
        <location line="+21"/>
        <location line="+111"/>
        <source>Revoke the authenticator</source>
        <translation>Thu hồi ứng dụng xác thực</translation>
    </message>
    <message>
        <location line="-110"/>
        <source>Sign-in codes from your authenticator app will stop working. You will sign in with email codes until you set up an authenticator again.</source>
        <translation>Mã đăng nhập từ ứng dụng xác thực sẽ ngừng hoạt động. Bạn sẽ đăng nhập bằng mã qua email cho tới khi thiết lập lại ứng dụng xác thực.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Revoke</source>
        <translation>Thu hồi</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Could not revoke the authenticator</source>
        <translation>Không thể thu hồi ứng dụng xác thực</translation>
    </message>
    <message>
        <location line="+19"/>
        <location line="+84"/>
        <source>Generate new backup codes</source>
        <translation>Tạo mã dự phòng mới</translation>
    </message>
    <message>
        <location line="-83"/>
        <source>A new set of backup codes replaces the current one: your old codes stop working at once. The new codes are shown only once.</source>
        <translation>Bộ mã dự phòng mới sẽ thay thế bộ hiện tại: các mã cũ ngừng hoạt động ngay lập tức. Mã mới chỉ được hiển thị một lần.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Generate new codes</source>
        <translation>Tạo mã mới</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Could not generate backup codes</source>
        <translation>Không thể tạo mã dự phòng</translation>
    </message>
    <message>
        <location line="+50"/>
        <location line="+2"/>
        <location line="+2"/>
        <source>Sign-in methods</source>
        <translation>Phương thức đăng nhập</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Revoke authenticator…</source>
        <translation>Thu hồi ứng dụng xác thực…</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+1"/>
        <source>Backup codes</source>
        <translation>Mã dự phòng</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Generate new codes…</source>
        <translation>Tạo mã mới…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Backup codes remaining</source>
        <translation>Số mã dự phòng còn lại</translation>
    </message>
</context>
<context>
    <name>NotificationChecks</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/validation.py" line="+50"/>
        <source>The code needs 2 to 32 letters, digits or underscores, starting with a letter.</source>
        <translation>Mã cần có từ 2 đến 32 chữ cái, chữ số hoặc dấu gạch dưới, bắt đầu bằng chữ cái.</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>%1 is required.</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/validation.py:27)</translatorcomment>
        <translation>%1 là bắt buộc.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is longer than %2 characters.</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/validation.py:28)</translatorcomment>
        <translation>%1 dài quá %2 ký tự.</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>%1 must be an http or https address.</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/validation.py:67)</translatorcomment>
        <translation>%1 phải là địa chỉ http hoặc https.</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 is not valid JSON (line %2, column %3).</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/validation.py:80)</translatorcomment>
        <translation>%1 không phải JSON hợp lệ (dòng %2, cột %3).</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 must be a JSON object {…}.</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/validation.py:87)</translatorcomment>
        <translation>%1 phải là một đối tượng JSON {…}.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 is not a host name.</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/validation.py:99)</translatorcomment>
        <translation>%1 không phải tên máy chủ.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 is not an email address.</source>
        <translatorcomment>Used at run time but not found by lupdate (views/notifications/validation.py:109)</translatorcomment>
        <translation>%1 không phải địa chỉ email.</translation>
    </message>
</context>
<context>
    <name>NotificationPanels</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/record_panel.py" line="+151"/>
        <source>Changes are not available: %1</source>
        <extracomment>The operation id, given the current row (e.g. enable or disable by status). Runner topics that make this panel reload. The factory (``build``) starts loading, through the controller; ``reload()`` loads again what follows the language. Set by the subclass.</extracomment>
        <translation>Không thể thay đổi: %1</translation>
    </message>
</context>
<context>
    <name>Notifications</name>
    <message>
        <location line="+117"/>
        <source>Could not load the lists of choices</source>
        <translation>Không thể tải các danh sách lựa chọn</translation>
    </message>
</context>
<context>
    <name>OfflineReview</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/offline.py" line="+51"/>
        <source>Review campaign (not signed in)</source>
        <translation>Xem xét đợt rà soát (chưa đăng nhập)</translation>
    </message>
</context>
<context>
    <name>OperationTitles</name>
    <message>
        <location filename="../src/portal_admin/ui/operation_titles.py" line="+7"/>
        <source>Ask for a password reset</source>
        <extracomment>The title of every mutating operation, by id.</extracomment>
        <translation>Yêu cầu đặt lại mật khẩu</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset the password</source>
        <translation>Đặt lại mật khẩu</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change own password</source>
        <translation>Đổi mật khẩu của mình</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the first password</source>
        <translation>Đặt mật khẩu đầu tiên</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the IP whitelist</source>
        <translation>Đặt danh sách IP cho phép</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enforce the IP whitelist</source>
        <translation>Áp dụng danh sách IP cho phép</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop enforcing the IP whitelist</source>
        <translation>Ngừng áp dụng danh sách IP cho phép</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Generate backup codes</source>
        <translation>Tạo mã dự phòng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove the authenticator app</source>
        <translation>Gỡ ứng dụng xác thực</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mail a password reset link</source>
        <translation>Gửi liên kết đặt lại mật khẩu</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change account status</source>
        <translation>Đổi trạng thái tài khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit an account</source>
        <translation>Sửa tài khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invite someone</source>
        <translation>Mời người dùng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel an invitation</source>
        <translation>Hủy lời mời</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create a channel type</source>
        <translation>Tạo loại kênh</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete a channel type</source>
        <translation>Xóa loại kênh</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Disable a channel type</source>
        <translation>Tắt loại kênh</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Enable a channel type</source>
        <translation>Bật loại kênh</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edit a channel type</source>
        <translation>Sửa loại kênh</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Activate a channel</source>
        <translation>Kích hoạt kênh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create a channel</source>
        <translation>Tạo kênh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate a channel</source>
        <translation>Vô hiệu hóa kênh</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete a channel</source>
        <translation>Xóa kênh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit a channel</source>
        <translation>Sửa kênh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check the incoming mail settings</source>
        <translation>Kiểm tra cài đặt nhận thư</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Check the outgoing mail settings</source>
        <translation>Kiểm tra cài đặt gửi thư</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete a role</source>
        <translation>Xóa vai trò</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create a portal</source>
        <translation>Tạo cổng</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>(none)</source>
        <extracomment>The kind of row an operation&apos;s ``status`` belongs to, by the id&apos;s prefix.</extracomment>
        <translation>(không có)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 (was %2)</source>
        <translation>%1 (trước đó: %2)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1: %2 → %3</source>
        <translation>%1: %2 → %3</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>bulk job %1</source>
        <translation>công việc hàng loạt %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>reverts %1</source>
        <translation>hoàn nguyên bản ghi %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>reason: %1</source>
        <translation>lý do: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reason: %1</source>
        <translation>Lý do: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>, </source>
        <translation>, </translation>
    </message>
</context>
<context>
    <name>OwnInvitations</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/own.py" line="+172"/>
        <source>&amp;Show:</source>
        <translation>&amp;Hiển thị:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Invitation statuses to show</source>
        <translation>Trạng thái lời mời cần hiển thị</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>My invitations</source>
        <translation>Lời mời của tôi</translation>
    </message>
</context>
<context>
    <name>PackCheck</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/pack_check_dialog.py" line="+84"/>
        <source>this installation&apos;s key</source>
        <extracomment>Who signed, by ``PackVerification.trust``.</extracomment>
        <translation>khóa của bản cài đặt này</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the key you pinned</source>
        <translation>khóa bạn đã chỉ định</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a key you do not trust</source>
        <translation>một khóa bạn không tin cậy</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>the trusted key “%1”</source>
        <translation>khóa tin cậy “%1”</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>changed: %1</source>
        <extracomment>The problem that means the pack&apos;s key did not sign it. What a pack check finds, as ``evidence.pack.verify_pack`` says it: a fixed sentence, or ``WHAT: NAME`` (``changed: accounts.csv``); a problem not listed here is shown as written.</extracomment>
        <translation>đã thay đổi: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed: %1</source>
        <translation>đã bị xóa: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>added: %1</source>
        <translation>đã được thêm: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>in the zip twice: %1</source>
        <translation>có hai lần trong tệp zip: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>damaged, cannot be read: %1</source>
        <translation>bị hỏng, không đọc được: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>encrypted (no pack is): %1</source>
        <translation>bị mã hóa (gói không bao giờ mã hóa): %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compressed in a way no pack is: %1</source>
        <translation>được nén theo cách không gói nào dùng: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>expands far more than a pack&apos;s file can (not read): %1</source>
        <translation>giải nén ra lớn hơn nhiều so với một tệp của gói (không đọc): %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>named twice in the manifest: %1</source>
        <translation>có hai lần trong bản kê khai: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the file does not exist</source>
        <translation>tệp không tồn tại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is not a zip file</source>
        <translation>đây không phải là tệp zip</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it holds far more files than a pack does</source>
        <translation>nó chứa nhiều tệp hơn hẳn một gói</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its files together are larger than a pack may be</source>
        <translation>tổng dung lượng các tệp vượt quá mức một gói có thể có</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>it has no signed manifest</source>
        <translation>không có bản kê khai đã ký</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its manifest cannot be read</source>
        <translation>không đọc được bản kê khai</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its manifest is larger than a pack&apos;s can be</source>
        <translation>bản kê khai lớn hơn mức bản kê khai của một gói có thể có</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its signature cannot be read</source>
        <translation>không đọc được chữ ký</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it was made by a newer version of the program</source>
        <translation>nó được tạo bởi phiên bản mới hơn của chương trình</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the manifest&apos;s signature does not verify</source>
        <translation>chữ ký của bản kê khai không hợp lệ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>public_key.pem is not the key that signed the manifest</source>
        <translation>public_key.pem không phải là khóa đã ký bản kê khai</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>it was signed by another key than the one pinned</source>
        <translation>nó được ký bằng một khóa khác với khóa đã chỉ định</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>unknown (the signature does not verify; the key below is only what the pack claims)</source>
        <extracomment>Tones (ui/theme/tones.py) of a good, doubtful and bad finding: they follow the theme.</extracomment>
        <translation>không rõ (chữ ký không hợp lệ; khóa bên dưới chỉ là khóa mà gói tự nhận)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>unknown (no signing key could be read)</source>
        <translation>không rõ (không đọc được khóa ký)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The pack %1 is intact: every file matches its signed manifest.</source>
        <translation>Gói %1 còn nguyên vẹn: mọi tệp đều khớp với bản kê khai đã ký.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The pack %1 is not verified: a key you do not trust signed it.</source>
        <translation>Gói %1 chưa được xác minh: nó được ký bằng một khóa bạn không tin cậy.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Its files match its manifest, but anyone can make a key and sign a pack with it. Compare the fingerprint above with the one the signer reads to you from their program&apos;s Help &gt; About, by another channel (in person or by telephone). If they are the same, trust the key and check the pack again.</source>
        <translation>Các tệp khớp với bản kê khai, nhưng ai cũng có thể tạo một khóa và dùng nó để ký gói. Hãy so dấu vân tay ở trên với dấu vân tay mà người ký đọc cho bạn từ Trợ giúp &gt; Giới thiệu trong chương trình của họ, qua một kênh khác (gặp trực tiếp hoặc qua điện thoại). Nếu chúng giống nhau, hãy tin cậy khóa này và kiểm tra lại gói.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The pack %1 was changed after it was signed.</source>
        <translation>Gói %1 đã bị thay đổi sau khi ký.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is not an evidence pack.</source>
        <translation>%1 không phải là gói bằng chứng.</translation>
    </message>
    <message>
        <location line="+192"/>
        <source>Evidence pack check</source>
        <extracomment>Check this pack (a ``Path``) again: a key was trusted, or the person asked. The person wants the list of trusted keys.</extracomment>
        <translation>Kiểm tra gói bằng chứng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pack:</source>
        <translation>Gói:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed by:</source>
        <translation>Người ký:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Fingerprint:</source>
        <translation>&amp;Dấu vân tay:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fingerprint of the signing key</source>
        <translation>Dấu vân tay của khóa ký</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy</source>
        <translation>Sao chép</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the fingerprint</source>
        <translation>Sao chép dấu vân tay</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What was found:</source>
        <translation>Những gì đã phát hiện:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What was found</source>
        <translation>Những gì đã phát hiện</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trust this key…</source>
        <translation>Tin cậy khóa này…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trusted keys…</source>
        <translation>Khóa tin cậy…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check again</source>
        <translation>Kiểm tra lại</translation>
    </message>
</context>
<context>
    <name>Palette</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/palette_entries.py" line="+21"/>
        <source>Refresh the current panel</source>
        <translation>Làm mới bảng hiện tại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lock the window</source>
        <translation>Khóa cửa sổ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change my password</source>
        <translation>Đổi mật khẩu của tôi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sign out</source>
        <translation>Đăng xuất</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>About this program</source>
        <translation>Giới thiệu chương trình</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Quit</source>
        <translation>Thoát</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Language: %1</source>
        <translation>Ngôn ngữ: %1</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>View: %1</source>
        <translation>Chế độ xem: %1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/command_palette.py" line="+48"/>
        <source>Panel</source>
        <translation>Bảng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Command</source>
        <translation>Lệnh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>Tài khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saved view</source>
        <translation>Chế độ xem đã lưu</translation>
    </message>
    <message>
        <location line="+112"/>
        <location line="+30"/>
        <source>Looking for accounts…</source>
        <extracomment>Where the focus was when the palette opened: it goes back there on closing.</extracomment>
        <translation>Đang tìm tài khoản…</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Nothing matches.</source>
        <translation>Không có kết quả phù hợp.</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>No account has this e-mail, name or id.</source>
        <translation>Không có tài khoản nào có email, tên hoặc mã này.</translation>
    </message>
    <message>
        <location line="+65"/>
        <location line="+1"/>
        <source>Command palette</source>
        <translation>Bảng lệnh</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Type a panel, a command, or an account&apos;s e-mail, name or id</source>
        <translation>Nhập tên bảng, lệnh, hoặc email, tên hay mã của tài khoản</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Search</source>
        <translation>Tìm kiếm</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Results</source>
        <translation>Kết quả</translation>
    </message>
</context>
<context>
    <name>Panels</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/__init__.py" line="+34"/>
        <source>Accounts</source>
        <translation>Tài khoản</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Roles</source>
        <translation>Vai trò</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Portals</source>
        <translation>Cổng</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/__init__.py" line="+30"/>
        <source>Invitations</source>
        <translation>Lời mời</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>My invitations</source>
        <translation>Lời mời của tôi</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/__init__.py" line="+31"/>
        <source>Notification channel types</source>
        <translation>Loại kênh thông báo</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Notification channels</source>
        <translation>Kênh thông báo</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reference/__init__.py" line="+30"/>
        <source>Constants</source>
        <translation>Hằng số</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Profile</source>
        <translation>Hồ sơ</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/__init__.py" line="+40"/>
        <source>Sessions</source>
        <translation>Phiên đăng nhập</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Login history</source>
        <translation>Lịch sử đăng nhập</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Multi-factor authentication</source>
        <translation>Xác thực đa yếu tố</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>IP whitelist</source>
        <translation>Danh sách IP được phép</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/__init__.py" line="+23"/>
        <source>Bulk jobs</source>
        <translation>Công việc hàng loạt</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/__init__.py" line="+33"/>
        <source>Snapshots</source>
        <translation>Ảnh chụp</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Journal</source>
        <translation>Nhật ký</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/__init__.py" line="+25"/>
        <source>Review campaigns</source>
        <translation>Đợt rà soát</translation>
    </message>
</context>
<context>
    <name>Permissions</name>
    <message>
        <location filename="../src/portal_admin/ui/permissions.py" line="+57"/>
        <source>This session is read-only.</source>
        <translation>Phiên này chỉ có quyền đọc.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your role lacks the permission {permission}.</source>
        <translation>Vai trò của bạn thiếu quyền {permission}.</translation>
    </message>
</context>
<context>
    <name>PortalsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+8"/>
        <source>Active</source>
        <translation>Đang hoạt động</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inactive</source>
        <translation>Không hoạt động</translation>
    </message>
    <message>
        <location line="+30"/>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+292"/>
        <source>Domain</source>
        <translation>Tên miền</translation>
    </message>
    <message>
        <location line="+12"/>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+1"/>
        <source>Remark</source>
        <translation>Ghi chú</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>Choose a portal type.</source>
        <extracomment>The created portal record. (code, label) pairs of the portal types. The panel: it keeps the tasks and knows what the signed-in account may do.</extracomment>
        <translation>Hãy chọn loại cổng.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The domain is required.</source>
        <translation>Tên miền là bắt buộc.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The domain is longer than %1 characters.</source>
        <translation>Tên miền dài quá %1 ký tự.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The remark is longer than %1 characters.</source>
        <translation>Ghi chú dài quá %1 ký tự.</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Create the portal %1.</source>
        <translation>Tạo cổng %1.</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Could not create the portal</source>
        <translation>Không thể tạo cổng</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-229"/>
        <source>%1 of at most %2 characters</source>
        <translation>%1 / tối đa %2 ký tự</translation>
    </message>
    <message>
        <location line="+168"/>
        <source>The portal %1 was created.</source>
        <extracomment>Shown, the controller starts loading (``controller.start()``).</extracomment>
        <translation>Đã tạo cổng %1.</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Create a portal for an institution. The server offers no way to list portals: the table below shows only the portals created in this session.</source>
        <translation>Tạo cổng cho một tổ chức. Máy chủ không cho phép liệt kê các cổng: bảng dưới đây chỉ hiển thị các cổng được tạo trong phiên này.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>New portal</source>
        <translation>Cổng mới</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created portal</source>
        <translation>Cổng đã tạo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Type:</source>
        <translation>&amp;Loại:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Domain:</source>
        <translation>Tên &amp;miền:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Remark:</source>
        <translation>Ghi &amp;chú:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Institution:</source>
        <translation>&amp;Tổ chức:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>e.g. portal.example.com (required)</source>
        <translation>ví dụ portal.example.com (bắt buộc)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Optional</source>
        <translation>Không bắt buộc</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Optional: empty means your own institution</source>
        <translation>Không bắt buộc: để trống là tổ chức của bạn</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Create portal</source>
        <translation>Tạo cổng</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Choose a portal type…</source>
        <translation>Chọn loại cổng…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Portal type</source>
        <translation>Loại cổng</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Institution id</source>
        <translation>ID tổ chức</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Create the portal</source>
        <translation>Tạo cổng này</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Why the portal cannot be created yet</source>
        <translation>Lý do chưa thể tạo cổng</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Portals created in this session</source>
        <translation>Các cổng đã tạo trong phiên này</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Portals created in this &amp;session:</source>
        <translation>Các cổng đã tạo trong phiên &amp;này:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Id:</source>
        <translation>ID:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type:</source>
        <translation>Loại:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Domain:</source>
        <translation>Tên miền:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status:</source>
        <translation>Trạng thái:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remark:</source>
        <translation>Ghi chú:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created:</source>
        <translation>Ngày tạo:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution:</source>
        <translation>Tổ chức:</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Portals</source>
        <translation>Cổng</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="-161"/>
        <source>Id</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/portals_controller.py:70)</translatorcomment>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Type</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/portals_controller.py:71)</translatorcomment>
        <translation>Loại</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Status</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/portals_controller.py:74)</translatorcomment>
        <translation>Trạng thái</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Created</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/portals_controller.py:77)</translatorcomment>
        <translation>Ngày tạo</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Institution</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/portals_controller.py:79)</translatorcomment>
        <translation>Tổ chức</translation>
    </message>
</context>
<context>
    <name>ProfileEditing</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/actions.py" line="+77"/>
        <source>The profile was not saved: your organisation manages it, or one of the same name.</source>
        <translation>Hồ sơ chưa được lưu: tổ chức của bạn quản lý hồ sơ này, hoặc một hồ sơ cùng tên.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The profiles could not be saved: the file is not writable.</source>
        <translation>Không lưu được các hồ sơ: không ghi được tệp.</translation>
    </message>
</context>
<context>
    <name>ProfileEditor</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/editor.py" line="+304"/>
        <source>The server showed no certificate to pin.</source>
        <extracomment>An import was accepted: the whole new list of profiles (for ``ProfileStore.save``). Makes the in-process transport the built-in sandbox is tested over.</extracomment>
        <translation>Máy chủ không đưa ra chứng chỉ nào để ghim.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The pin was read from the server: compare it with the fingerprint your IT department gives before saving.</source>
        <translation>Đã đọc mã ghim từ máy chủ: hãy so sánh với dấu vân tay do bộ phận CNTT cung cấp trước khi lưu.</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1 profiles were exported to %2 (without access codes).</source>
        <translation>Đã xuất %1 hồ sơ kết nối vào %2 (không kèm mã truy cập).</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The profiles were imported.</source>
        <translation>Đã nhập các hồ sơ kết nối.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>CA bundle</source>
        <translation>Gói CA</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation>Chứng chỉ (*.pem *.crt *.cer);;Mọi tệp (*)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Connection profile</source>
        <translation>Hồ sơ kết nối</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Name:</source>
        <translation>&amp;Tên:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Profile name</source>
        <translation>Tên hồ sơ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Base URL:</source>
        <translation>&amp;URL gốc:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Base URL</source>
        <translation>URL gốc</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Portal &amp;access code:</source>
        <translation>Mã truy cập &amp;cổng:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal access code</source>
        <translation>Mã truy cập cổng</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Workspace id:</source>
        <translation>ID &amp;không gian làm việc:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace id</source>
        <translation>ID không gian làm việc</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Language:</source>
        <translation>&amp;Ngôn ngữ:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>Ngôn ngữ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Environment:</source>
        <translation>&amp;Môi trường:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Environment</source>
        <translation>Môi trường</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;CA bundle:</source>
        <translation>&amp;Gói CA:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CA bundle file</source>
        <translation>Tệp gói CA</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Plain http:</source>
        <translation>HTTP không mã hóa:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow plain http to other hosts</source>
        <translation>Cho phép HTTP không mã hóa tới máy khác</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Secure Channel:</source>
        <translation>Kênh bảo mật:</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+43"/>
        <source>Allow legacy padding</source>
        <translation>Cho phép padding kiểu cũ</translation>
    </message>
    <message>
        <location line="-40"/>
        <source>&amp;Idle lock:</source>
        <translation>Khóa khi không &amp;dùng:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Idle lock minutes</source>
        <translation>Số phút không dùng trước khi khóa</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Kiosk:</source>
        <translation>Kiosk:</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+37"/>
        <source>Read-only kiosk mode</source>
        <translation>Chế độ kiosk chỉ đọc</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>&amp;Proxy:</source>
        <translation>&amp;Proxy:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Proxy</source>
        <translation>Proxy</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Certi&amp;ficate pin:</source>
        <translation>Gh&amp;im chứng chỉ:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Certificate pins (SHA-256)</source>
        <translation>Ghim chứng chỉ (SHA-256)</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Allow plain http to hosts other than this computer</source>
        <translation>Cho phép HTTP không mã hóa tới máy khác</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Browse…</source>
        <translation>Duyệt…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Test connection</source>
        <translation>Kiểm tr&amp;a kết nối</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check the server as typed here, step by step, without signing in</source>
        <translation>Kiểm tra máy chủ theo nội dung đã nhập ở đây, từng bước, không đăng nhập</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Choose a CA bundle file</source>
        <translation>Chọn tệp gói CA</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>System certificates</source>
        <translation>Chứng chỉ hệ thống</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> min</source>
        <translation> phút</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Never</source>
        <translation>Không bao giờ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Follow the system</source>
        <translation>Theo hệ thống</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>System settings</source>
        <translation>Cài đặt hệ thống</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No proxy</source>
        <translation>Không dùng proxy</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Manual</source>
        <translation>Thủ công</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Proxy URL</source>
        <translation>URL proxy</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No user name or password here: a proxy that needs them is set in HTTPS_PROXY, with the system setting.</source>
        <translation>Không nhập tên người dùng hay mật khẩu ở đây: proxy cần chúng được đặt trong HTTPS_PROXY, với cài đặt của hệ thống.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Not pinned</source>
        <translation>Chưa ghim</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Read from server</source>
        <translation>Đọc từ má&amp;y chủ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Read the pin from the server</source>
        <translation>Đọc mã ghim từ máy chủ</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The built-in sandbox: it can be tested here, not changed.</source>
        <translation>Sandbox tích hợp: có thể kiểm tra ở đây, không thể thay đổi.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Managed by your organisation: this profile cannot be changed or deleted here.</source>
        <translation>Do tổ chức của bạn quản lý: không thể thay đổi hay xóa hồ sơ này tại đây.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Managed</source>
        <translation>Được quản lý</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>E&amp;xport…</source>
        <translation>&amp;Xuất…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save the profiles to a file (without access codes)</source>
        <translation>Lưu các hồ sơ kết nối vào tệp (không kèm mã truy cập)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>I&amp;mport…</source>
        <translation>N&amp;hập…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add profiles from a file</source>
        <translation>Thêm hồ sơ kết nối từ tệp</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Problems</source>
        <translation>Vấn đề</translation>
    </message>
</context>
<context>
    <name>ProfileFields</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reference/profile_panel.py" line="+39"/>
        <source>Email</source>
        <extracomment>The fields shown, in order: (key in the record or its extras, label source text).</extracomment>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/profile_panel.py:36)</translatorcomment>
        <translation>Email</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/profile_panel.py:37)</translatorcomment>
        <translation>Tên</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/profile_panel.py:38)</translatorcomment>
        <translation>Cổng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/profile_panel.py:39)</translatorcomment>
        <translation>Trạng thái</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account id</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/profile_panel.py:40)</translatorcomment>
        <translation>ID tài khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phone</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/profile_panel.py:41)</translatorcomment>
        <translation>Điện thoại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution id</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/profile_panel.py:42)</translatorcomment>
        <translation>ID tổ chức</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/profile_panel.py:43)</translatorcomment>
        <translation>Ngôn ngữ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/profile_panel.py:44)</translatorcomment>
        <translation>Múi giờ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/profile_panel.py:45)</translatorcomment>
        <translation>Quốc gia</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspaces</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/profile_panel.py:46)</translatorcomment>
        <translation>Không gian làm việc</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roles</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/profile_panel.py:47)</translatorcomment>
        <translation>Vai trò</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MFA methods</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/profile_panel.py:48)</translatorcomment>
        <translation>Phương thức MFA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Permission codes</source>
        <translatorcomment>Used at run time but not found by lupdate (views/reference/profile_panel.py:49)</translatorcomment>
        <translation>Mã quyền</translation>
    </message>
</context>
<context>
    <name>ProfilePanel</name>
    <message>
        <location line="+29"/>
        <source>Yes</source>
        <extracomment>Extras never shown as such (covered by another field, or internal).</extracomment>
        <translation>Có</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No</source>
        <translation>Không</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 (primary)</source>
        <translation>%1 (chính)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 in %2</source>
        <translation>%1 tại %2</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>The profile could not be loaded.
%1</source>
        <extracomment>The person asked to change the password (also calls ``extras[&quot;change_password&quot;]``).</extracomment>
        <translation>Không thể tải hồ sơ.
%1</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>%1:</source>
        <translation>%1:</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Signed-in account</source>
        <translation>Tài khoản đang đăng nhập</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>My invitations</source>
        <translation>Lời mời của tôi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refresh</source>
        <translation>Làm mới</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reload the profile</source>
        <translation>Tải lại hồ sơ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Change password…</source>
        <translation>Đổi mật khẩu…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Change password</source>
        <translation>Đổi mật khẩu</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error</source>
        <translation>Lỗi</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Profile details</source>
        <translation>Chi tiết hồ sơ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Profile</source>
        <translation>Hồ sơ</translation>
    </message>
</context>
<context>
    <name>ProfileTransfer</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/transfer.py" line="+40"/>
        <source>The file cannot be imported: %1 %2. Nothing was imported.</source>
        <translation>Không thể nhập tệp: %1 %2. Không có gì được nhập.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The file cannot be imported: %1. Nothing was imported.</source>
        <translation>Không thể nhập tệp: %1. Không có gì được nhập.</translation>
    </message>
    <message>
        <location line="+39"/>
        <location line="+108"/>
        <source>Import profiles</source>
        <translation>Nhập hồ sơ kết nối</translation>
    </message>
    <message>
        <location line="-103"/>
        <source>Adds: %1</source>
        <translation>Thêm: %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Replaces: %1</source>
        <translation>Thay thế: %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Skips (managed or built-in, never replaced): %1</source>
        <translation>Bỏ qua (được quản lý hoặc tích hợp, không bao giờ bị thay thế): %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The file holds no profile.</source>
        <translation>Tệp không chứa hồ sơ nào.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Replace my profiles of the same name</source>
        <translation>Thay thế các hồ sơ cùng tên của tôi</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Import</source>
        <translation>&amp;Nhập</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Profile files (*.json)</source>
        <extracomment>A file was written: its path and the number of profiles in it. An import was accepted: the whole new list of profiles, ready for ``store.save``. Something went wrong (a translated sentence); nothing was written or imported.</extracomment>
        <translation>Tệp hồ sơ kết nối (*.json)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All files (*)</source>
        <translation>Tất cả các tệp (*)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Export profiles</source>
        <translation>Xuất hồ sơ kết nối</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The profiles cannot be exported: %1 %2.</source>
        <translation>Không thể xuất hồ sơ kết nối: %1 %2.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The file could not be written: %1</source>
        <translation>Không thể ghi tệp: %1</translation>
    </message>
</context>
<context>
    <name>ProfileValidation</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/store.py" line="+16"/>
        <source>The profile needs a name.</source>
        <translation>Hồ sơ cần có tên.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Another profile already has this name.</source>
        <translation>Đã có hồ sơ khác trùng tên này.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The base URL must start with https:// and name a host.</source>
        <translation>URL gốc phải bắt đầu bằng https:// và có tên máy chủ.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Plain http to a host other than this computer needs “Allow plain http”.</source>
        <translation>HTTP không mã hóa tới máy chủ khác ngoài máy tính này cần bật “Cho phép HTTP không mã hóa”.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The CA bundle file does not exist.</source>
        <translation>Tệp gói CA không tồn tại.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The proxy URL must be http://host:port or https://host:port, without a user name or password.</source>
        <translation>URL proxy phải có dạng http://host:port hoặc https://host:port, không kèm tên người dùng hay mật khẩu.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The certificate pin “%1” is not a SHA-256 fingerprint (64 hexadecimal digits).</source>
        <translation>Mã ghim chứng chỉ “%1” không phải là dấu vân tay SHA-256 (64 chữ số thập lục phân).</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The idle lock time cannot be negative.</source>
        <translation>Thời gian khóa khi không dùng không được âm.</translation>
    </message>
</context>
<context>
    <name>ResumeOffer</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/resume_offer.py" line="+24"/>
        <source>Bulk jobs waiting</source>
        <translation>Công việc hàng loạt đang chờ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 bulk job(s) on this server were paused or interrupted. Resume them from the Bulk jobs panel: targets whose outcome is unknown are read back first, so nothing is changed twice.</source>
        <translation>Có %1 công việc hàng loạt trên máy chủ này đã tạm dừng hoặc bị gián đoạn. Hãy tiếp tục chúng trong bảng Công việc hàng loạt: các đối tượng chưa rõ kết quả sẽ được đọc lại trước, nên không có gì bị thay đổi hai lần.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Show the jobs</source>
        <translation>Xem các công việc</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Later</source>
        <translation>Để sau</translation>
    </message>
</context>
<context>
    <name>RevertWindow</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_plan.py" line="-356"/>
        <source>Target</source>
        <translation>Đối tượng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Value</source>
        <translation>Giá trị</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>Trước</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>Sau</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Now</source>
        <translation>Hiện tại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan</source>
        <translation>Kế hoạch</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Why, and what to do instead</source>
        <translation>Lý do và cách làm thay thế</translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+283"/>
        <source>Revert</source>
        <translation>Hoàn nguyên</translation>
    </message>
    <message>
        <location line="-106"/>
        <source>Set back</source>
        <extracomment>The task making the plan (set by the panel that opened the window). Set once the window is closed: a plan that arrives then is discarded. Why, as a bulk change asks (optional; sent with status changes, journaled).</extracomment>
        <translation>Đưa về</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>CSV files (*.csv)</source>
        <translation>Tệp CSV (*.csv)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Revert every change of bulk job %1 back to its value before.</source>
        <translation>Hoàn nguyên mọi thay đổi của công việc hàng loạt %1 về giá trị trước đó.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Revert the changes of journal records %1 back to their value before.</source>
        <translation>Hoàn nguyên các thay đổi của bản ghi nhật ký %1 về giá trị trước đó.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The revert&apos;s plan</source>
        <translation>Kế hoạch hoàn nguyên</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reading and verifying the journal, then the targets…</source>
        <translation>Đang đọc và kiểm tra nhật ký, rồi đến các đối tượng…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Nothing has been sent. To set back: %1; skipped: %2.</source>
        <translation>Chưa gửi gì. Sẽ đưa về: %1; bỏ qua: %2.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>none</source>
        <translation>không có</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Export the plan…</source>
        <translation>&amp;Xuất kế hoạch…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Close</source>
        <translation>Đóng</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Run the revert (%1)</source>
        <translation>&amp;Chạy hoàn nguyên (%1)</translation>
    </message>
</context>
<context>
    <name>RevertWords</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_words.py" line="+33"/>
        <source>Status</source>
        <extracomment>The values a revert sets back, by the key its records use.</extracomment>
        <translation>Trạng thái</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>Tên</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phone</source>
        <translation>Điện thoại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remark</source>
        <translation>Ghi chú</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>Ngôn ngữ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>Múi giờ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translation>Quốc gia</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist entries</source>
        <translation>Các mục của danh sách IP được phép</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist enabled</source>
        <translation>Bật danh sách IP được phép</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel status</source>
        <translation>Trạng thái kênh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel name</source>
        <translation>Tên kênh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Description</source>
        <translation>Mô tả</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Default channel</source>
        <translation>Kênh mặc định</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel type status</source>
        <translation>Trạng thái loại kênh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel type name</source>
        <translation>Tên loại kênh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel type description</source>
        <translation>Mô tả loại kênh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Display order</source>
        <translation>Thứ tự hiển thị</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Icon</source>
        <translation>Biểu tượng</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Changed since</source>
        <extracomment>A skipped line, in a few words (the plan&apos;s column).</extracomment>
        <translation>Đã bị đổi sau đó</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Already back</source>
        <translation>Đã về giá trị cũ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not allowed</source>
        <translation>Không được phép</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not reversible</source>
        <translation>Không thể hoàn nguyên</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No value before</source>
        <translation>Không có giá trị trước</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Was refused</source>
        <translation>Đã bị từ chối</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Gone</source>
        <translation>Không còn tồn tại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Another account&apos;s</source>
        <translation>Của tài khoản khác</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your own status</source>
        <translation>Trạng thái của chính bạn</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not authenticated</source>
        <translation>Chưa được xác thực</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A password-reset mail cannot be taken back.</source>
        <extracomment>Why a kind of change cannot be set back, and what can be done instead.</extracomment>
        <translation>Không thể thu hồi thư đặt lại mật khẩu.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tell the person to ignore the mail; its link expires.</source>
        <translation>Hãy báo người đó bỏ qua thư; liên kết trong thư sẽ hết hạn.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A password is never recorded, so it cannot be set back.</source>
        <translation>Mật khẩu không bao giờ được ghi lại nên không thể đưa về.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set a new password.</source>
        <translation>Hãy đặt mật khẩu mới.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A settings check changed nothing.</source>
        <translation>Việc kiểm tra cài đặt không thay đổi gì.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing to do.</source>
        <translation>Không cần làm gì.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>New backup codes replaced the earlier ones.</source>
        <translation>Mã dự phòng mới đã thay thế các mã trước đó.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep the new codes, or generate another set.</source>
        <translation>Hãy giữ các mã mới, hoặc tạo một bộ khác.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A revoked authenticator cannot be restored.</source>
        <translation>Không thể khôi phục ứng dụng xác thực đã bị thu hồi.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enrol the authenticator again.</source>
        <translation>Hãy đăng ký lại ứng dụng xác thực.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A deleted role cannot be restored.</source>
        <translation>Không thể khôi phục vai trò đã xóa.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create the role again with its permissions and members.</source>
        <translation>Hãy tạo lại vai trò cùng các quyền và thành viên của nó.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This program cannot remove a portal.</source>
        <translation>Chương trình này không thể gỡ bỏ cổng thông tin.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask the server&apos;s operator to remove it.</source>
        <translation>Hãy nhờ người vận hành máy chủ gỡ bỏ nó.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A sent invitation cannot be unsent.</source>
        <translation>Không thể thu hồi lời mời đã gửi.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel it in the Invitations panel.</source>
        <translation>Hãy hủy nó trong bảng Lời mời.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A cancelled invitation cannot be reopened.</source>
        <translation>Không thể mở lại lời mời đã hủy.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invite the person again.</source>
        <translation>Hãy mời lại người đó.</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+4"/>
        <source>A revert does not delete what was created.</source>
        <translation>Hoàn nguyên không xóa những gì đã được tạo.</translation>
    </message>
    <message>
        <location line="-3"/>
        <location line="+4"/>
        <source>Delete it in the Notifications panel.</source>
        <translation>Hãy xóa nó trong bảng Thông báo.</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+4"/>
        <source>What was deleted cannot be restored.</source>
        <translation>Không thể khôi phục những gì đã xóa.</translation>
    </message>
    <message>
        <location line="-3"/>
        <location line="+4"/>
        <source>Create it again.</source>
        <translation>Hãy tạo lại.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>a cut-off record</source>
        <extracomment>Why the journal does not verify (``journal.Problem.reason``).</extracomment>
        <translation>một bản ghi bị cắt cụt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a line that is not a record</source>
        <translation>một dòng không phải là bản ghi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a record edited after it was written</source>
        <translation>một bản ghi bị sửa sau khi đã ghi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a record removed or moved</source>
        <translation>một bản ghi bị xóa hoặc bị dời chỗ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>records out of order</source>
        <translation>các bản ghi sai thứ tự</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Set back from %1 to %2.</source>
        <extracomment>What a line&apos;s value is a value of, for its label: (field, kind of row) by the line&apos;s key.</extracomment>
        <translation>Đưa từ %1 về %2.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Changed since the record: before %1, after %2, now %3. Check who changed it; set it by hand if it should still go back.</source>
        <translation>Đã bị đổi sau bản ghi: trước %1, sau %2, hiện tại %3. Hãy kiểm tra ai đã đổi; nếu vẫn cần đưa về thì đặt bằng tay.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Already back: the value now is the value before (%1).</source>
        <translation>Đã về giá trị cũ: giá trị hiện tại là giá trị trước đó (%1).</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 cannot become %2 directly (from %1: %3). Change it to one of those first.</source>
        <translation>%1 không thể chuyển thẳng sang %2 (từ %1 có thể sang: %3). Hãy đổi sang một trong số đó trước.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>This change cannot be set back.</source>
        <translation>Không thể đưa thay đổi này về.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The record has no usable value before the change. Set it by hand (after: %1).</source>
        <translation>Bản ghi không có giá trị trước dùng được. Hãy đặt bằng tay (sau: %1).</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The change was refused: nothing to set back.</source>
        <translation>Thay đổi đã bị từ chối: không có gì để đưa về.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>It no longer exists.</source>
        <translation>Nó không còn tồn tại.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Another account&apos;s IP whitelist: sign in as that account to revert it.</source>
        <translation>Danh sách IP được phép của tài khoản khác: hãy đăng nhập bằng tài khoản đó để hoàn nguyên.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The signed-in account&apos;s own status: sign in as another administrator.</source>
        <translation>Trạng thái của chính tài khoản đang đăng nhập: hãy đăng nhập bằng quản trị viên khác.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The journal record is not authenticated: no checkpoint of this installation vouches for it, this program did not write it, and the job file does not confirm it. Anyone who can write the journal could have added it, so it is left alone.</source>
        <translation>Bản ghi nhật ký này chưa được xác thực: không điểm kiểm tra nào của bản cài đặt này bảo đảm cho nó, chương trình này không ghi nó và tệp công việc không xác nhận nó. Bất kỳ ai ghi được vào nhật ký đều có thể đã thêm nó, nên nó được để nguyên.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>at line %1 (record %2): %3</source>
        <translation>tại dòng %1 (bản ghi %2): %3</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>it does not match its signed checkpoints (%1)</source>
        <translation>không khớp với các điểm kiểm tra đã ký (%1)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Nothing was sent.</source>
        <translation>Chưa gửi gì.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This session is read-only: it cannot revert.</source>
        <translation>Phiên này chỉ đọc: không thể hoàn nguyên.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The journal does not verify, so nothing in it is reverted: %1.</source>
        <translation>Nhật ký không qua được kiểm tra nên không hoàn nguyên gì trong đó: %1.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The journal has a break at line %1 (record %2: %3) after record %4: records may be missing there, so nothing is reverted across it.</source>
        <translation>Nhật ký có chỗ đứt tại dòng %1 (bản ghi %2: %3) sau bản ghi %4: có thể thiếu bản ghi ở đó nên không hoàn nguyên vượt qua chỗ đứt.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Record %1 was made on %2 (profile %3), not on the server signed in to (%4): sign in there to revert it.</source>
        <translation>Bản ghi %1 được tạo trên %2 (hồ sơ kết nối %3), không phải trên máy chủ đang đăng nhập (%4): hãy đăng nhập vào đó để hoàn nguyên.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The journal records no change of this job: nothing to revert.</source>
        <translation>Nhật ký không ghi thay đổi nào của công việc này: không có gì để hoàn nguyên.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The journal has no such change: %1.</source>
        <translation>Nhật ký không có thay đổi này: %1.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Select the records to revert.</source>
        <translation>Hãy chọn các bản ghi cần hoàn nguyên.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Records %1 are not authenticated: no checkpoint of this installation vouches for them, this program did not write them, and no job file here confirms them. Anyone who can write the journal could have added them, so they are not reverted here.</source>
        <translation>Các bản ghi %1 chưa được xác thực: không điểm kiểm tra nào của bản cài đặt này bảo đảm cho chúng, chương trình này không ghi chúng và không tệp công việc nào ở đây xác nhận chúng. Bất kỳ ai ghi được vào nhật ký đều có thể đã thêm chúng, nên chúng không được hoàn nguyên ở đây.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A revert of the same job or record is being planned or run in another window or program. Wait for it to end.</source>
        <translation>Một cửa sổ hoặc chương trình khác đang lập kế hoạch hoặc chạy việc hoàn nguyên cùng công việc hoặc bản ghi này. Hãy đợi nó kết thúc.</translation>
    </message>
</context>
<context>
    <name>ReviewQueue</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/queue_model.py" line="+27"/>
        <source>Item</source>
        <translation>Mục</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>Loại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>Tên</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>Trạng thái</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal</source>
        <translation>Cổng</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution</source>
        <translation>Tổ chức</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Flags</source>
        <translation>Cờ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Decision</source>
        <translation>Quyết định</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Keep</source>
        <extracomment>The model&apos;s column of the decision (shown second: ``queue_columns``).</extracomment>
        <translation>Giữ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revoke</source>
        <translation>Thu hồi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Don&apos;t know</source>
        <translation>Không rõ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Account</source>
        <translation>Tài khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Role</source>
        <translation>Vai trò</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitation</source>
        <translation>Lời mời</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New</source>
        <translation>Mới</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reactivated</source>
        <translation>Đã kích hoạt lại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Administrator</source>
        <translation>Quản trị viên</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not updated</source>
        <translation>Lâu không cập nhật</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expired</source>
        <translation>Đã hết hạn</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Writes</source>
        <translation>Có quyền ghi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Own account</source>
        <translation>Tài khoản của chính mình</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>%1 in the earlier snapshot %2, %3 now</source>
        <translation>%1 trong ảnh chụp trước %2, nay là %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 in the earlier campaign&apos;s scope %2, %3 now</source>
        <translation>%1 trong phạm vi đợt rà soát trước %2, nay là %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not updated for %1 days (since %2)</source>
        <translation>không cập nhật trong %1 ngày (từ %2)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pending, expired on %1</source>
        <translation>đang chờ, đã hết hạn vào %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>holds write permissions: %1</source>
        <translation>có quyền ghi: %1</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>a system-portal (administrator) account</source>
        <translation>tài khoản cổng hệ thống (quản trị viên)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the reviewer&apos;s own account: another reviewer decides it</source>
        <translation>tài khoản của chính người rà soát: người rà soát khác sẽ quyết định</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>not in the earlier snapshot %1</source>
        <extracomment>Rows fetched at once, and pages kept. The data role of a row&apos;s :class:`~portal_admin.reviews.Item`. The roles answered (a view asks for a dozen per cell: the others cost nothing). A flag&apos;s reason in the program&apos;s languages, by the engine&apos;s reason code (``reviews/flags.py``): its parameters fill %1, %2 ...</extracomment>
        <translation>không có trong ảnh chụp trước %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not in the earlier campaign&apos;s scope %1</source>
        <translation>không có trong phạm vi đợt rà soát trước %1</translation>
    </message>
</context>
<context>
    <name>RoleColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_model.py" line="+26"/>
        <source>Name</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/roles_model.py:25)</translatorcomment>
        <translation>Tên</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Type</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/roles_model.py:26)</translatorcomment>
        <translation>Loại</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Members</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/roles_model.py:27)</translatorcomment>
        <translation>Thành viên</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Permissions</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/roles_model.py:29)</translatorcomment>
        <translation>Quyền</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Description</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/roles_model.py:31)</translatorcomment>
        <translation>Mô tả</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Updated</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/roles_model.py:33)</translatorcomment>
        <translation>Ngày cập nhật</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Id</source>
        <translatorcomment>Used at run time but not found by lupdate (views/accounts/roles_model.py:35)</translatorcomment>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>RolesPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="+14"/>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <location line="+120"/>
        <source>Choose a role.</source>
        <extracomment>The role the detail shows (None: nothing chosen). &quot;loading&quot;, &quot;ready&quot;, &quot;empty&quot; or &quot;error&quot;. The panel: it keeps the tasks and knows what the signed-in account may do.</extracomment>
        <translation>Hãy chọn một vai trò.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The OWNER role is protected: it can never be deleted.</source>
        <translation>Vai trò OWNER được bảo vệ: không bao giờ có thể xóa.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The role is in use by %n member(s): give them another role before deleting it.</source>
        <translation>Vai trò đang được %n thành viên sử dụng: hãy gán vai trò khác cho họ trước khi xóa.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Delete the role %1? This cannot be undone.</source>
        <translation>Xóa vai trò %1? Không thể hoàn tác thao tác này.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server refuses if members still hold the role.</source>
        <translation>Máy chủ sẽ từ chối nếu vẫn còn thành viên giữ vai trò này.</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+2"/>
        <source>Delete role</source>
        <translation>Xóa vai trò</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Could not delete the role %1</source>
        <translation>Không thể xóa vai trò %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The role %1 was deleted.</source>
        <translation>Đã xóa vai trò %1.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="+151"/>
        <source>Choose a role to see its permissions.</source>
        <translation>Chọn một vai trò để xem các quyền của nó.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Id:</source>
        <translation>ID:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy id</source>
        <translation>Sao chép ID</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy the role id</source>
        <translation>Sao chép ID vai trò</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Role id</source>
        <translation>ID vai trò</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Type:</source>
        <translation>Loại:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Description:</source>
        <translation>Mô tả:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Members:</source>
        <translation>Thành viên:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created:</source>
        <translation>Ngày tạo:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Updated:</source>
        <translation>Cập nhật:</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Permission codes:</source>
        <translation>&amp;Mã quyền:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Permission codes</source>
        <translation>Mã quyền</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Delete role…</source>
        <translation>Xóa vai trò…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete the role</source>
        <translation>Xóa vai trò này</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Why the role cannot be deleted</source>
        <translation>Lý do không thể xóa vai trò</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Role</source>
        <translation>Vai trò</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Role details</source>
        <translation>Chi tiết vai trò</translation>
    </message>
    <message>
        <location line="+96"/>
        <source>Loading…</source>
        <extracomment>Shown, the controller starts loading (``controller.start()``).</extracomment>
        <translation>Đang tải…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The workspace has no roles.</source>
        <translation>Không gian làm việc chưa có vai trò nào.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The roles could not be loaded.</source>
        <translation>Không thể tải danh sách vai trò.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%n role(s)</source>
        <translation>%n vai trò</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Refresh</source>
        <translation>Làm mới</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reload the roles (F5)</source>
        <translation>Tải lại danh sách vai trò (F5)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Refresh the roles</source>
        <translation>Làm mới danh sách vai trò</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+2"/>
        <source>Roles</source>
        <translation>Vai trò</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Number of roles</source>
        <translation>Số vai trò</translation>
    </message>
</context>
<context>
    <name>SavedViews</name>
    <message>
        <location filename="../src/portal_admin/ui/lists/saved_views.py" line="+139"/>
        <source>The view “%1” no longer exists.</source>
        <extracomment>How long the list must stay unchanged before its state is written. The view shown or the list of views changed (the button&apos;s text follows). Something went wrong that the person should read (a translated sentence).</extracomment>
        <translation>Chế độ xem “%1” không còn nữa.</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The view could not be saved: the settings file is not writable.</source>
        <translation>Không lưu được chế độ xem: không ghi được tệp cài đặt.</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The view could not be deleted: the settings file is not writable.</source>
        <translation>Không xóa được chế độ xem: không ghi được tệp cài đặt.</translation>
    </message>
    <message>
        <location line="+28"/>
        <location line="+41"/>
        <source>Default view</source>
        <translation>Chế độ xem mặc định</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>Save view as…</source>
        <translation>Lưu chế độ xem thành…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Save changes to “%1”</source>
        <translation>Lưu thay đổi vào “%1”</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Delete view “%1”</source>
        <translation>Xóa chế độ xem “%1”</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reset to default</source>
        <translation>Khôi phục mặc định</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No filters, the first sort and columns, widths fitted</source>
        <translation>Không lọc, thứ tự sắp xếp và các cột ban đầu, độ rộng vừa nội dung</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>View: %1</source>
        <translation>Chế độ xem: %1</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>This list already has 50 saved views; delete one first.</source>
        <translation>Danh sách này đã có 50 chế độ xem đã lưu; hãy xóa bớt một cái trước.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A view name can have at most 60 characters.</source>
        <translation>Tên chế độ xem có tối đa 60 ký tự.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The view needs a name.</source>
        <translation>Chế độ xem cần có tên.</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/lists/saved_view_dialog.py" line="+25"/>
        <source>Save view</source>
        <translation>Lưu chế độ xem</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>View name</source>
        <translation>Tên chế độ xem</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Name:</source>
        <translation>&amp;Tên:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The filters, sort and columns of this list are kept on this computer.</source>
        <translation>Bộ lọc, thứ tự sắp xếp và các cột của danh sách này được giữ trên máy tính này.</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>A view of this name exists: saving replaces it.</source>
        <translation>Đã có chế độ xem tên này: lưu sẽ thay thế nó.</translation>
    </message>
</context>
<context>
    <name>SecretField</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/secrets.py" line="+66"/>
        <source>Unchanged (type to replace)</source>
        <translation>Không đổi (nhập để thay thế)</translation>
    </message>
</context>
<context>
    <name>SecurityPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/common.py" line="+38"/>
        <source>Sign in to see this panel.</source>
        <translation>Đăng nhập để xem bảng này.</translation>
    </message>
</context>
<context>
    <name>SecurityText</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/formatting.py" line="+16"/>
        <source>Successful</source>
        <translation>Thành công</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>Thất bại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blocked</source>
        <translation>Bị chặn</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>in the future</source>
        <translation>trong tương lai</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>just now</source>
        <translation>vừa xong</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 min ago</source>
        <translation>%1 phút trước</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 h ago</source>
        <translation>%1 giờ trước</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 days ago</source>
        <translation>%1 ngày trước</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 months ago</source>
        <translation>%1 tháng trước</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Yes</source>
        <translation>Có</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No</source>
        <translation>Không</translation>
    </message>
</context>
<context>
    <name>SessionsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/sessions.py" line="+45"/>
        <source>Device</source>
        <translation>Thiết bị</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Client IP</source>
        <translation>IP máy khách</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>User agent</source>
        <translation>User agent</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed in</source>
        <translation>Đăng nhập lúc</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last activity</source>
        <translation>Hoạt động gần nhất</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>This device</source>
        <translation>Thiết bị này</translation>
    </message>
    <message>
        <location line="+137"/>
        <source>&amp;Active sessions</source>
        <translation>Phiên đang &amp;hoạt động</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Active sessions</source>
        <translation>Phiên đang hoạt động</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refresh</source>
        <translation>Làm mới</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Refresh the sessions</source>
        <translation>Làm mới danh sách phiên</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+2"/>
        <source>Session settings</source>
        <translation>Cài đặt phiên</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Single sign-on:</source>
        <translation>Đăng nhập một lần (SSO):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Maximum sessions:</source>
        <translation>Số phiên tối đa:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last sign-in:</source>
        <translation>Lần đăng nhập gần nhất:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last sign-in IP:</source>
        <translation>IP đăng nhập gần nhất:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Password changed:</source>
        <translation>Đổi mật khẩu lúc:</translation>
    </message>
</context>
<context>
    <name>SignInChart</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/chart.py" line="+56"/>
        <source>%1 successful and %2 failed sign-ins from %3 to %4</source>
        <translation>%1 lượt đăng nhập thành công và %2 lượt thất bại từ %3 đến %4</translation>
    </message>
    <message>
        <location line="+9"/>
        <location line="+38"/>
        <source>No sign-ins to show.</source>
        <translation>Không có lượt đăng nhập nào để hiển thị.</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>Sign-ins per day</source>
        <translation>Lượt đăng nhập mỗi ngày</translation>
    </message>
    <message>
        <location line="+99"/>
        <location filename="../src/portal_admin/ui/panels/security/chart_table.py" line="+29"/>
        <source>Successful</source>
        <translation>Thành công</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../src/portal_admin/ui/panels/security/chart_table.py" line="+1"/>
        <source>Failed</source>
        <translation>Thất bại</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1: %2 successful, %3 failed</source>
        <translation>%1: %2 thành công, %3 thất bại</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/chart_table.py" line="-2"/>
        <source>Day</source>
        <translation>Ngày</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Total</source>
        <translation>Tổng</translation>
    </message>
</context>
<context>
    <name>SignInErrors</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/controller.py" line="+20"/>
        <source>The email address or the password is wrong.</source>
        <extracomment>Clearer summaries for the error codes the sign-in forms meet.</extracomment>
        <translation>Địa chỉ email hoặc mật khẩu không đúng.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The code is wrong or has expired. Check it and try again.</source>
        <translation>Mã không đúng hoặc đã hết hạn. Hãy kiểm tra rồi thử lại.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A code was sent a moment ago. Wait until the countdown ends.</source>
        <translation>Một mã vừa được gửi. Hãy đợi cho tới khi hết thời gian đếm ngược.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The sign-in session has expired. Sign in again.</source>
        <translation>Phiên đăng nhập đã hết hạn. Hãy đăng nhập lại.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The reset token is wrong, has expired or was already used.</source>
        <translation>Token đặt lại không đúng, đã hết hạn hoặc đã được sử dụng.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The current password is wrong.</source>
        <translation>Mật khẩu hiện tại không đúng.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Too many attempts. Wait a while, then try again.</source>
        <translation>Quá nhiều lần thử. Hãy đợi một lúc rồi thử lại.</translation>
    </message>
</context>
<context>
    <name>SignInFlow</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/flow.py" line="+219"/>
        <source>You can send another code in %1 seconds.</source>
        <extracomment>list[MfaMethod] offered by the server for the current login session. Seconds until another email code may be sent (0: now). Seconds left in the login session (0 when none runs). Signed in: the account&apos;s email. The selected connection profile changed. An email address the pages should show (after setup or a change of page).</extracomment>
        <translation>Bạn có thể gửi mã khác sau %1 giây.</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>A code was sent to %1. It is valid for %2 minutes.</source>
        <translation>Đã gửi mã tới %1. Mã có hiệu lực trong %2 phút.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A code was sent to %1.</source>
        <translation>Đã gửi mã tới %1.</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>The sign-in session expired before the code was entered. Sign in again.</source>
        <translation>Phiên đăng nhập đã hết hạn trước khi mã được nhập. Hãy đăng nhập lại.</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Enter the challenge token.</source>
        <translation>Nhập token thử thách.</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>If an account exists for %1, an email with a reset token is on its way. Check your mail.</source>
        <translation>Nếu có tài khoản dùng %1, một email chứa token đặt lại đang được gửi tới. Hãy kiểm tra hộp thư.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Enter the reset token from the email.</source>
        <translation>Nhập token đặt lại trong email.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Your password was changed. Sign in with the new password.</source>
        <translation>Đã đổi mật khẩu. Hãy đăng nhập bằng mật khẩu mới.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Enter the setup session id from the email.</source>
        <translation>Nhập ID phiên thiết lập trong email.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Your password is set. Sign in with it now.</source>
        <translation>Đã đặt mật khẩu. Hãy đăng nhập bằng mật khẩu đó ngay bây giờ.</translation>
    </message>
</context>
<context>
    <name>SignInForms</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/forms.py" line="+83"/>
        <source>Information</source>
        <translation>Thông tin</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Working</source>
        <translation>Đang xử lý</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Please wait</source>
        <translation>Vui lòng đợi</translation>
    </message>
</context>
<context>
    <name>SignInPages</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/pages.py" line="+304"/>
        <source>Sign in to unlock</source>
        <extracomment>&quot;Edit…&quot; (the chosen profile) or &quot;New…&quot; (None) was clicked. The demo box&apos;s &quot;Fill in the administrator&quot; was clicked. Edit the chosen profile (a built-in or managed one opens read-only, to test it). True in the idle lock&apos;s sign-in window (see :meth:`set_unlocking`).</extracomment>
        <translation>Đăng nhập để mở khóa</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The window was locked. Sign in again with your password and a second factor to continue where you left off.</source>
        <translation>Cửa sổ đã bị khóa. Hãy đăng nhập lại bằng mật khẩu và yếu tố xác thực thứ hai để tiếp tục công việc đang dở.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Sign in to the System Portal</source>
        <translation>Đăng nhập System Portal</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Choose the server, then enter your email address and password.</source>
        <translation>Chọn máy chủ, rồi nhập địa chỉ email và mật khẩu.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Connection:</source>
        <translation>&amp;Kết nối:</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+336"/>
        <source>&amp;Email:</source>
        <translation>&amp;Email:</translation>
    </message>
    <message>
        <location line="-335"/>
        <source>&amp;Password:</source>
        <translation>&amp;Mật khẩu:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>name@example.com</source>
        <translation>ten@example.com</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+26"/>
        <source>Sign in</source>
        <translation>Đăng nhập</translation>
    </message>
    <message>
        <location line="-24"/>
        <location line="+26"/>
        <location line="+297"/>
        <source>Forgot your password?</source>
        <translation>Quên mật khẩu?</translation>
    </message>
    <message>
        <location line="-321"/>
        <source>I have a reset token</source>
        <translation>Tôi có token đặt lại</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+29"/>
        <source>First-time password setup</source>
        <translation>Thiết lập mật khẩu lần đầu</translation>
    </message>
    <message>
        <location line="-223"/>
        <source>Demo accounts (built-in sandbox)</source>
        <extracomment>Wrapped hints below the form (a QFormLayout sizes wrapped labels badly). The window&apos;s notice, error panel and busy bar are moved here when the page shows. &quot;Fill in the administrator&quot; was clicked.</extracomment>
        <translation>Tài khoản demo (sandbox tích hợp)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>administrator</source>
        <translation>quản trị viên</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>read-only auditor</source>
        <translation>kiểm toán viên chỉ đọc</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>awaits approval</source>
        <translation>đang chờ phê duyệt</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(none yet)</source>
        <translation>(chưa có)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>first-time setup</source>
        <translation>thiết lập lần đầu</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Codes, reset tokens and setup ids arrive in the demo mailbox.</source>
        <translation>Mã, token đặt lại và ID thiết lập được gửi tới hộp thư demo.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Fill in the administrator</source>
        <translation>Điền tài khoản quản trị viên</translation>
    </message>
    <message>
        <location line="+158"/>
        <source>Connection profile</source>
        <translation>Hồ sơ kết nối</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Environment of the selected profile</source>
        <translation>Môi trường của hồ sơ đã chọn</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+318"/>
        <source>Email address</source>
        <translation>Địa chỉ email</translation>
    </message>
    <message>
        <location line="-317"/>
        <source>Password</source>
        <translation>Mật khẩu</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Enter a password reset token</source>
        <translation>Nhập token đặt lại mật khẩu</translation>
    </message>
    <message>
        <location line="-180"/>
        <source>Demo accounts</source>
        <translation>Tài khoản demo</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fill in the demo administrator&apos;s email and password</source>
        <translation>Điền email và mật khẩu của quản trị viên demo</translation>
    </message>
    <message>
        <location line="+155"/>
        <source>E&amp;dit…</source>
        <translation>&amp;Sửa…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edit or test the connection profile</source>
        <translation>Sửa hoặc kiểm tra hồ sơ kết nối</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ne&amp;w…</source>
        <translation>Mớ&amp;i…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New connection profile</source>
        <translation>Hồ sơ kết nối mới</translation>
    </message>
    <message>
        <location line="+131"/>
        <source>Send a code to %1, then type it below.</source>
        <translation>Gửi mã tới %1, rồi nhập mã bên dưới.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open your authenticator app and type the code it shows for this account.</source>
        <translation>Mở ứng dụng xác thực và nhập mã hiển thị cho tài khoản này.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Send code</source>
        <translation>Gửi mã</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+10"/>
        <source>Resend code</source>
        <translation>Gửi lại mã</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>You can ask for a new code in %1 seconds.</source>
        <translation>Bạn có thể yêu cầu mã mới sau %1 giây.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No code arrived? You can send a new one now.</source>
        <translation>Không nhận được mã? Bạn có thể gửi mã mới ngay bây giờ.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Resend countdown</source>
        <translation>Đếm ngược gửi lại</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Time left to finish signing in: %1</source>
        <translation>Thời gian còn lại để hoàn tất đăng nhập: %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Time left to finish signing in</source>
        <translation>Thời gian còn lại để hoàn tất đăng nhập</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Confirm it is you</source>
        <translation>Xác nhận đó là bạn</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The password for %1 is right. Now confirm with a second factor.</source>
        <translation>Mật khẩu của %1 đã đúng. Bây giờ hãy xác nhận bằng yếu tố xác thực thứ hai.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Method:</source>
        <translation>Phương thức:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Code by email</source>
        <translation>Mã qua email</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code from an authenticator app</source>
        <translation>Mã từ ứng dụng xác thực</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Code:</source>
        <translation>&amp;Mã:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>6 digits</source>
        <translation>6 chữ số</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+110"/>
        <location line="+75"/>
        <source>Back</source>
        <translation>Quay lại</translation>
    </message>
    <message>
        <location line="-184"/>
        <source>Verify and sign in</source>
        <translation>Xác minh và đăng nhập</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fill in the demo code</source>
        <translation>Điền mã demo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Second factor methods</source>
        <translation>Phương thức xác thực thứ hai</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verification code</source>
        <translation>Mã xác minh</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Back to email and password</source>
        <translation>Quay lại email và mật khẩu</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Verify the code and sign in</source>
        <translation>Xác minh mã và đăng nhập</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Fill in the sandbox&apos;s current authenticator code</source>
        <translation>Điền mã xác thực hiện tại của sandbox</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Your account is waiting for approval</source>
        <translation>Tài khoản của bạn đang chờ phê duyệt</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The email, password and code for %1 were right, but an administrator has not yet approved this account.</source>
        <translation>Email, mật khẩu và mã của %1 đều đúng, nhưng quản trị viên chưa phê duyệt tài khoản này.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>You cannot use the program until the account is approved. Ask your administrator to approve it, then sign in again. Nothing was changed.</source>
        <translation>Bạn chưa thể dùng chương trình cho tới khi tài khoản được phê duyệt. Hãy đề nghị quản trị viên phê duyệt, rồi đăng nhập lại. Không có gì bị thay đổi.</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+3"/>
        <location line="+48"/>
        <location line="+29"/>
        <location line="+4"/>
        <location line="+41"/>
        <source>Back to sign-in</source>
        <translation>Quay lại đăng nhập</translation>
    </message>
    <message>
        <location line="-124"/>
        <source>Why you cannot enter</source>
        <translation>Lý do bạn không thể vào</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What to do</source>
        <translation>Việc cần làm</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Enter your email address. If an account exists for it, the server emails a reset token you can use to choose a new password.</source>
        <translation>Nhập địa chỉ email của bạn. Nếu có tài khoản dùng email này, máy chủ sẽ gửi một token đặt lại để bạn chọn mật khẩu mới.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>C&amp;hallenge token:</source>
        <translation>Token &amp;thử thách:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The bot-challenge token your organisation gives you for password recovery.</source>
        <translation>Token chống bot mà tổ chức của bạn cấp để khôi phục mật khẩu.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Send reset email</source>
        <translation>Gửi email đặt lại</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Challenge token</source>
        <translation>Token thử thách</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Send the password reset email</source>
        <translation>Gửi email đặt lại mật khẩu</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Check your mail</source>
        <translation>Kiểm tra hộp thư</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open the email, copy the reset token it contains, then choose “Enter the reset token”. The token works once and expires.</source>
        <translation>Mở email, sao chép token đặt lại trong đó, rồi chọn “Nhập token đặt lại”. Token chỉ dùng được một lần và có thời hạn.</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+5"/>
        <source>Enter the reset token</source>
        <translation>Nhập token đặt lại</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>&amp;New password:</source>
        <translation>Mật khẩu &amp;mới:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Repeat it:</source>
        <translation>&amp;Nhập lại:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New password</source>
        <translation>Mật khẩu mới</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Repeat the new password</source>
        <translation>Nhập lại mật khẩu mới</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Choose a new password</source>
        <translation>Chọn mật khẩu mới</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Paste the reset token from the email and choose a new password.</source>
        <translation>Dán token đặt lại từ email và chọn mật khẩu mới.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reset &amp;token:</source>
        <translation>&amp;Token đặt lại:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set new password</source>
        <translation>Đặt mật khẩu mới</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset token</source>
        <translation>Token đặt lại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the new password</source>
        <translation>Đặt mật khẩu mới</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Set up your password</source>
        <translation>Thiết lập mật khẩu</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your account was created for you. Paste the setup id from the welcome email and choose your password.</source>
        <translation>Tài khoản của bạn đã được tạo sẵn. Hãy dán ID thiết lập trong email chào mừng và chọn mật khẩu.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Setup &amp;id:</source>
        <translation>&amp;ID thiết lập:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set password</source>
        <translation>Đặt mật khẩu</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Setup session id</source>
        <translation>ID phiên thiết lập</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the password</source>
        <translation>Đặt mật khẩu</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Signed in</source>
        <translation>Đăng nhập lúc</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Opening the program…</source>
        <translation>Đang mở chương trình…</translation>
    </message>
</context>
<context>
    <name>SignInValidation</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/validation.py" line="+20"/>
        <source>Enter your email address.</source>
        <translation>Nhập địa chỉ email của bạn.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The email address is not valid: it needs a name, an @ and a domain.</source>
        <translation>Địa chỉ email không hợp lệ: cần có tên, ký tự @ và tên miền.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Enter your password.</source>
        <translation>Nhập mật khẩu của bạn.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Enter the verification code.</source>
        <translation>Nhập mã xác minh.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Enter a new password.</source>
        <translation>Nhập mật khẩu mới.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The new password must have at least %1 characters.</source>
        <translation>Mật khẩu mới phải có ít nhất %1 ký tự.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Type the new password a second time to confirm it.</source>
        <translation>Nhập mật khẩu mới lần thứ hai để xác nhận.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The two new passwords do not match.</source>
        <translation>Hai mật khẩu mới không khớp.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>At least %1 characters.</source>
        <translation>Ít nhất %1 ký tự.</translation>
    </message>
</context>
<context>
    <name>SignInWindow</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/window.py" line="+465"/>
        <source>The built-in sandbox accepts the token already filled in.</source>
        <extracomment>The page class of each step (the credentials page is built with the window). The challenge token the sandbox accepts on forgot-password (see docs/sandbox.md). The person asked to edit a profile (or to make one: None); the program opens the editor. The person asked to review a campaign file without signing in (docs/reviews.md). The person closed the window (without signing in, or after). The window was painted for the first time (it is on screen). Set by :meth:`pin_email`: only that account may sign in here.</extracomment>
        <translation>Sandbox tích hợp chấp nhận token đã được điền sẵn.</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Unlock — Portal Admin</source>
        <translation>Mở khóa — Portal Admin</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sign in — Portal Admin</source>
        <translation>Đăng nhập — Portal Admin</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Demo mailbox…</source>
        <translation>Hộp thư demo…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open the demo mailbox</source>
        <translation>Mở hộp thư demo</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Re&amp;view a campaign file…</source>
        <translation>&amp;Xem xét tệp đợt rà soát…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Review a campaign file</source>
        <translation>Xem xét tệp đợt rà soát</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Decide an access-review campaign from its file alone, without signing in</source>
        <translation>Quyết định một đợt rà soát quyền truy cập chỉ từ tệp của nó, không cần đăng nhập</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sign-in steps</source>
        <translation>Các bước đăng nhập</translation>
    </message>
</context>
<context>
    <name>SnapshotDiff</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/diff_view.py" line="+28"/>
        <source>What</source>
        <translation>Loại</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change</source>
        <translation>Thay đổi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Id</source>
        <translation>Mã</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name or e-mail</source>
        <translation>Tên hoặc email</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Field</source>
        <translation>Trường</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>Trước</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>Sau</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Accounts</source>
        <extracomment>The kinds of change, as the diff names them, and their words.</extracomment>
        <translation>Tài khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roles</source>
        <translation>Vai trò</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitations</source>
        <translation>Lời mời</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist</source>
        <translation>Danh sách IP được phép</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MFA</source>
        <translation>MFA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channels</source>
        <translation>Kênh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel types</source>
        <translation>Loại kênh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Settings</source>
        <translation>Cài đặt</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>added</source>
        <translation>đã thêm</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed</source>
        <translation>đã xóa</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>changed</source>
        <translation>đã thay đổi</translation>
    </message>
    <message>
        <location line="+123"/>
        <source>The first %1 of %2 changes are shown; exports hold all of them.</source>
        <extracomment>Rows shown at most; the export writes every change. &quot;csv&quot; or &quot;pack&quot;: the person asked to export what is shown. The server&apos;s labels each snapshot keeps (old, new).</extracomment>
        <translation>Đang hiển thị %1 thay đổi đầu tiên trong %2; tệp xuất chứa tất cả.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 of %2 changes shown.</source>
        <translation>Đang hiển thị %1 trong %2 thay đổi.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>All kinds</source>
        <translation>Mọi loại</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Kind of change</source>
        <translation>Loại thay đổi</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter by id, name or value</source>
        <translation>Lọc theo mã, tên hoặc giá trị</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change filter</source>
        <translation>Bộ lọc thay đổi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export CSV…</source>
        <translation>Xuất CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence pack…</source>
        <translation>Gói bằng chứng…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Changes between the snapshots</source>
        <translation>Các thay đổi giữa hai ảnh chụp</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Choose two snapshots and compare them, or take a new one.</source>
        <translation>Hãy chọn hai ảnh chụp để so sánh, hoặc chụp một ảnh mới.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Changes from the snapshot of %1 to the snapshot of %2</source>
        <translation>Các thay đổi từ ảnh chụp lúc %1 đến ảnh chụp lúc %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No change: the two snapshots hold the same access.</source>
        <translation>Không có thay đổi: hai ảnh chụp có cùng quyền truy cập.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 %2: %3</source>
        <translation>%1 %2: %3</translation>
    </message>
</context>
<context>
    <name>SnapshotsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/snapshots_panel.py" line="+57"/>
        <source>Taken</source>
        <translation>Thời điểm chụp</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server</source>
        <translation>Máy chủ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>Tài khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accounts</source>
        <translation>Số tài khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roles</source>
        <translation>Vai trò</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitations</source>
        <translation>Lời mời</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File</source>
        <translation>Tệp</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Reading accounts: %1 of %2</source>
        <translation>Đang đọc tài khoản: %1 / %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading roles</source>
        <translation>Đang đọc vai trò</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading invitations</source>
        <translation>Đang đọc lời mời</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading the security settings</source>
        <translation>Đang đọc cài đặt bảo mật</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading notification channels</source>
        <translation>Đang đọc kênh thông báo</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The file %1 does not exist.</source>
        <translation>Tệp %1 không tồn tại.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is not a snapshot of this program, or it is damaged.</source>
        <translation>%1 không phải là ảnh chụp của chương trình này, hoặc đã bị hỏng.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is an incomplete snapshot: it was interrupted before it was finished.</source>
        <translation>%1 là ảnh chụp chưa hoàn chỉnh: nó đã bị gián đoạn trước khi hoàn tất.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 was made by a newer version of the program.</source>
        <translation>%1 được tạo bởi phiên bản mới hơn của chương trình.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 holds SQL that no snapshot of this program has (a trigger, a view or another object): it was refused unread.</source>
        <translation>%1 chứa SQL mà không ảnh chụp nào của chương trình này có (trigger, view hoặc đối tượng khác): đã từ chối, không đọc.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 does not have the tables of a snapshot of this program: refused.</source>
        <translation>%1 không có các bảng của một ảnh chụp của chương trình này: đã từ chối.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is damaged: its integrity check failed, so it was not used.</source>
        <translation>%1 đã bị hỏng: kiểm tra toàn vẹn không đạt, nên không được dùng.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 could not be read in time, so it was not used.</source>
        <translation>Không thể đọc %1 kịp thời, nên không được dùng.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 was changed since it was opened: open it again.</source>
        <translation>%1 đã bị thay đổi kể từ khi mở: hãy mở lại.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>This file cannot be used as a snapshot.</source>
        <translation>Không thể dùng tệp này làm ảnh chụp.</translation>
    </message>
    <message>
        <location line="+224"/>
        <source>Select two snapshots.</source>
        <extracomment>Reads this installation&apos;s fingerprint, or None (called in a worker thread; makes no key). By default ``trust.own_fingerprint`` of the key store. The last pack check shown, and the list of trusted keys (while open). Snapshot files opened from elsewhere (listed until the program ends).</extracomment>
        <translation>Hãy chọn hai ảnh chụp.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>An access-review campaign of the selected snapshot</source>
        <translation>Đợt rà soát quyền truy cập từ ảnh chụp đã chọn</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+7"/>
        <source>Select one snapshot.</source>
        <translation>Hãy chọn một ảnh chụp.</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>A signed zip of the selected snapshot: CSV and a report</source>
        <translation>Tệp zip đã ký của ảnh chụp đã chọn: CSV và báo cáo</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>The snapshot was cancelled; nothing was kept.</source>
        <translation>Đã hủy ảnh chụp; không có gì được giữ lại.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The snapshot could not be finished; nothing was kept.</source>
        <translation>Không thể hoàn tất ảnh chụp; không có gì được giữ lại.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Snapshot taken: %1 accounts, %2 roles, %3 invitations.</source>
        <translation>Đã chụp: %1 tài khoản, %2 vai trò, %3 lời mời.</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Starting the snapshot…</source>
        <translation>Đang bắt đầu chụp…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Snapshot taken. There was no earlier snapshot of this server: this one is the baseline of the next comparison.</source>
        <translation>Đã chụp. Chưa có ảnh chụp nào trước đó của máy chủ này: ảnh chụp này là mốc cho lần so sánh tiếp theo.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Snapshot taken and compared with the one of %1: %2 changes.</source>
        <translation>Đã chụp và so sánh với ảnh chụp lúc %1: %2 thay đổi.</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Snapshots (*.sqlite);;All files (*)</source>
        <translation>Ảnh chụp (*.sqlite);;Tất cả tệp (*)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Evidence packs (*.zip);;All files (*)</source>
        <translation>Gói bằng chứng (*.zip);;Tất cả tệp (*)</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>The list of trusted keys cannot be read: only this installation&apos;s key is trusted for now.</source>
        <translation>Không đọc được danh sách khóa tin cậy: hiện chỉ tin cậy khóa của bản cài đặt này.</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>%1 changes written to %2.</source>
        <translation>Đã ghi %1 thay đổi vào %2.</translation>
    </message>
    <message>
        <location line="+88"/>
        <source>Take snapshot</source>
        <translation>Chụp trạng thái</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Snapshot and compare with the last</source>
        <translation>Chụp và so sánh với lần trước</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Take a snapshot now and show what changed since the last one of this server</source>
        <translation>Chụp ngay và hiển thị những gì đã thay đổi kể từ ảnh chụp trước của máy chủ này</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cancel</source>
        <translation>Hủy</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refresh</source>
        <translation>Làm mới</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>List the snapshots again (F5)</source>
        <translation>Liệt kê lại các ảnh chụp (F5)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Compare the two selected</source>
        <translation>So sánh hai mục đã chọn</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open a snapshot file…</source>
        <translation>Mở tệp ảnh chụp…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Evidence pack…</source>
        <translation>Gói bằng chứng…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Review campaign…</source>
        <translation>Đợt rà soát…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Verify a pack…</source>
        <translation>Kiểm tra gói…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check an evidence pack&apos;s signature and every file in it</source>
        <translation>Kiểm tra chữ ký của gói bằng chứng và mọi tệp trong đó</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Trusted keys…</source>
        <translation>Khóa tin cậy…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The signing keys whose packs this computer accepts as verified</source>
        <translation>Các khóa ký mà máy tính này chấp nhận gói do chúng ký là đã xác minh</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+4"/>
        <source>Snapshots</source>
        <translation>Ảnh chụp</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Snapshot progress</source>
        <translation>Tiến độ chụp</translation>
    </message>
</context>
<context>
    <name>Tour</name>
    <message>
        <location filename="../src/portal_admin/ui/tour/runner.py" line="+331"/>
        <source>Suspended accounts</source>
        <extracomment>An account id the sandbox does not know: its 404 is the tour&apos;s real error. The sandbox&apos;s demo auditor (read permissions only), who signs in for the kiosk tour. Set to a folder, the tour pauses at each stop for an outside checker (the AT-SPI walk of ``tests/accessibility``): it writes ``stop-N.json`` (``{&quot;n&quot;: N, &quot;name&quot;: ...}``) there, keeps the event loop turning (so the checker&apos;s questions are answered) until ``done-N`` appears, and writes ``end.json`` (``{&quot;stops&quot;: N, &quot;problems&quot;: [...]}``) when the tour is over. How long one stop waits for the checker before the tour goes on (noted as a problem). The folder of the stop-by-stop handshake (see :data:`PAUSE_ENV`); None: no pauses. The window sizes the workspace is pictured at.</extracomment>
        <translation>Tài khoản bị tạm ngưng</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/tour/dialogs.py" line="+56"/>
        <source>Suspended</source>
        <translation>Tạm ngưng</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Suspend the account</source>
        <translation>Tạm ngưng tài khoản</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend the account ann@example.com.</source>
        <translation>Tạm ngưng tài khoản ann@example.com.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend</source>
        <translation>Tạm ngưng</translation>
    </message>
</context>
<context>
    <name>TrustedKeys</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/trust_dialog.py" line="+48"/>
        <location line="+183"/>
        <source>Name</source>
        <translation>Tên</translation>
    </message>
    <message>
        <location line="-182"/>
        <location line="+181"/>
        <source>Fingerprint</source>
        <translation>Dấu vân tay</translation>
    </message>
    <message>
        <location line="-180"/>
        <source>Added</source>
        <translation>Ngày thêm</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>This is not a key fingerprint. A fingerprint is 64 hexadecimal digits (0–9, a–f), as the signer&apos;s About window shows it; spaces do not matter.</source>
        <extracomment>The table&apos;s role holding a row&apos;s fingerprint (the own key&apos;s row holds none).</extracomment>
        <translation>Đây không phải là dấu vân tay của khóa. Dấu vân tay gồm 64 chữ số thập lục phân (0–9, a–f), như cửa sổ Giới thiệu của người ký hiển thị; khoảng trắng không quan trọng.</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>Give the key a name: whose key it is.</source>
        <extracomment>The key added (a ``TrustedKey``), just before the dialog closes.</extracomment>
        <translation>Hãy đặt tên cho khóa: khóa này của ai.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This name reads as this installation&apos;s own key. Name whose key it is.</source>
        <translation>Tên này đọc giống khóa riêng của bản cài đặt này. Hãy đặt tên theo người sở hữu khóa.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This is this installation&apos;s own key: its packs are trusted already.</source>
        <translation>Đây là khóa của chính bản cài đặt này: các gói của nó đã được tin cậy.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>This key is trusted already, as “%1”.</source>
        <translation>Khóa này đã được tin cậy, với tên “%1”.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The key was not added: %1</source>
        <translation>Chưa thêm khóa: %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The list of trusted keys could not be saved: %1</source>
        <translation>Không thể lưu danh sách khóa tin cậy: %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Trust a signing key</source>
        <translation>Tin cậy một khóa ký</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Trust a key only after comparing its fingerprint with the one its owner reads to you from their program&apos;s Help &gt; About, by another channel: in person or by telephone. Packs it signs will then be shown as verified.</source>
        <translation>Chỉ tin cậy một khóa sau khi đã so dấu vân tay của nó với dấu vân tay mà chủ sở hữu đọc cho bạn từ Trợ giúp &gt; Giới thiệu trong chương trình của họ, qua một kênh khác: gặp trực tiếp hoặc qua điện thoại. Khi đó, các gói do khóa này ký sẽ được hiển thị là đã xác minh.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Fingerprint:</source>
        <translation>&amp;Dấu vân tay:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Name:</source>
        <translation>&amp;Tên:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Whose key it is, e.g. “Audit team, Lyon”</source>
        <translation>Khóa của ai, ví dụ “Nhóm kiểm toán, Lyon”</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Why the key was not added</source>
        <translation>Lý do chưa thêm khóa</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Trust this key</source>
        <translation>Tin cậy khóa này</translation>
    </message>
    <message>
        <location line="+102"/>
        <source>This installation</source>
        <extracomment>The list changed (a key added or removed): a check shown elsewhere may be redone. Why the list cannot be read or changed (&quot;&quot; when it can).</extracomment>
        <translation>Bản cài đặt này</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The list of trusted keys cannot be read: %1</source>
        <translation>Không đọc được danh sách khóa tin cậy: %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This installation&apos;s own key is not listed: it has not made one yet, or this computer&apos;s keyring cannot be read.</source>
        <translation>Khóa của chính bản cài đặt này không có trong danh sách: chưa được tạo, hoặc không đọc được keyring của máy tính này.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No other key is trusted yet.</source>
        <translation>Chưa tin cậy khóa nào khác.</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>This installation&apos;s own key is always trusted.</source>
        <translation>Khóa của chính bản cài đặt này luôn được tin cậy.</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Remove a trusted key</source>
        <translation>Xóa một khóa tin cậy</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop trusting the key “%1”?</source>
        <translation>Ngừng tin cậy khóa “%1”?</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Fingerprint %1. Packs it signed will be shown as signed by a key you do not trust.</source>
        <translation>Dấu vân tay %1. Các gói do khóa này ký sẽ được hiển thị là được ký bằng một khóa bạn không tin cậy.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Remove</source>
        <translation>Xóa</translation>
    </message>
    <message>
        <location line="+35"/>
        <location line="+10"/>
        <source>Trusted keys</source>
        <translation>Khóa tin cậy</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Evidence packs signed by these keys are shown as verified. This installation&apos;s own key is always trusted. Add another key only after comparing its fingerprint with its owner&apos;s by another channel.</source>
        <translation>Các gói bằng chứng được ký bằng những khóa này được hiển thị là đã xác minh. Khóa của chính bản cài đặt này luôn được tin cậy. Chỉ thêm khóa khác sau khi đã so dấu vân tay của nó với dấu vân tay của chủ sở hữu qua một kênh khác.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Add a key…</source>
        <translation>Thêm khóa…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove…</source>
        <translation>Xóa…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy fingerprint</source>
        <translation>Sao chép dấu vân tay</translation>
    </message>
</context>
<context>
    <name>TypedConfirm</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/typed_confirm.py" line="+74"/>
        <source>That is not the number of targets.</source>
        <translation>Đó không phải là số đối tượng.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 (%2): type %3 to confirm:</source>
        <translation>%1 (%2): nhập %3 để xác nhận:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 targets will change: type %1 to confirm:</source>
        <translation>Sẽ thay đổi %1 đối tượng: nhập %1 để xác nhận:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Number of targets, to confirm</source>
        <translation>Số đối tượng, để xác nhận</translation>
    </message>
</context>
</TS>
