<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="vi_VN">
    <context>
        <name>QPlatformTheme</name>
        <message>
            <source>OK</source>
            <translation>Đồng ý</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>Lưu</translation>
        </message>
        <message>
            <source>Save All</source>
            <translation>Lưu tất cả</translation>
        </message>
        <message>
            <source>Open</source>
            <translation>Mở</translation>
        </message>
        <message>
            <source>&amp;Yes</source>
            <translation>&amp;Có</translation>
        </message>
        <message>
            <source>Yes to &amp;All</source>
            <translation>Có với &amp;tất cả</translation>
        </message>
        <message>
            <source>&amp;No</source>
            <translation>&amp;Không</translation>
        </message>
        <message>
            <source>N&amp;o to All</source>
            <translation>Không &amp;với tất cả</translation>
        </message>
        <message>
            <source>Abort</source>
            <translation>Hủy bỏ</translation>
        </message>
        <message>
            <source>Retry</source>
            <translation>Thử lại</translation>
        </message>
        <message>
            <source>Ignore</source>
            <translation>Bỏ qua</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>Đóng</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Hủy</translation>
        </message>
        <message>
            <source>Discard</source>
            <translation>Loại bỏ</translation>
        </message>
        <message>
            <source>Help</source>
            <translation>Trợ giúp</translation>
        </message>
        <message>
            <source>Apply</source>
            <translation>Áp dụng</translation>
        </message>
        <message>
            <source>Reset</source>
            <translation>Đặt lại</translation>
        </message>
        <message>
            <source>Restore Defaults</source>
            <translation>Khôi phục mặc định</translation>
        </message>
    </context>
    <context>
        <name>QDialogButtonBox</name>
        <message>
            <source>OK</source>
            <translation>Đồng ý</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>Lưu</translation>
        </message>
        <message>
            <source>Save All</source>
            <translation>Lưu tất cả</translation>
        </message>
        <message>
            <source>Open</source>
            <translation>Mở</translation>
        </message>
        <message>
            <source>&amp;Yes</source>
            <translation>&amp;Có</translation>
        </message>
        <message>
            <source>Yes to &amp;All</source>
            <translation>Có với &amp;tất cả</translation>
        </message>
        <message>
            <source>&amp;No</source>
            <translation>&amp;Không</translation>
        </message>
        <message>
            <source>N&amp;o to All</source>
            <translation>Không &amp;với tất cả</translation>
        </message>
        <message>
            <source>Abort</source>
            <translation>Hủy bỏ</translation>
        </message>
        <message>
            <source>Retry</source>
            <translation>Thử lại</translation>
        </message>
        <message>
            <source>Ignore</source>
            <translation>Bỏ qua</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>Đóng</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Hủy</translation>
        </message>
        <message>
            <source>Discard</source>
            <translation>Loại bỏ</translation>
        </message>
        <message>
            <source>Help</source>
            <translation>Trợ giúp</translation>
        </message>
        <message>
            <source>Apply</source>
            <translation>Áp dụng</translation>
        </message>
        <message>
            <source>Reset</source>
            <translation>Đặt lại</translation>
        </message>
        <message>
            <source>Restore Defaults</source>
            <translation>Khôi phục mặc định</translation>
        </message>
        <message>
            <source>&amp;OK</source>
            <translation>Đồ&amp;ng ý</translation>
        </message>
        <message>
            <source>&amp;Cancel</source>
            <translation>&amp;Hủy</translation>
        </message>
        <message>
            <source>&amp;Close</source>
            <translation>Đó&amp;ng</translation>
        </message>
        <message>
            <source>&amp;Save</source>
            <translation>&amp;Lưu</translation>
        </message>
        <message>
            <source>Don't Save</source>
            <translation>Không lưu</translation>
        </message>
        <message>
            <source>Close without Saving</source>
            <translation>Đóng không lưu</translation>
        </message>
    </context>
    <context>
        <name>QGnomeTheme</name>
        <message>
            <source>&amp;OK</source>
            <translation>Đồ&amp;ng ý</translation>
        </message>
        <message>
            <source>&amp;Cancel</source>
            <translation>&amp;Hủy</translation>
        </message>
        <message>
            <source>&amp;Close</source>
            <translation>Đó&amp;ng</translation>
        </message>
        <message>
            <source>&amp;Save</source>
            <translation>&amp;Lưu</translation>
        </message>
        <message>
            <source>Close without Saving</source>
            <translation>Đóng không lưu</translation>
        </message>
    </context>
    <context>
        <name>QMessageBox</name>
        <message>
            <source>OK</source>
            <translation>Đồng ý</translation>
        </message>
        <message>
            <source>Help</source>
            <translation>Trợ giúp</translation>
        </message>
        <message>
            <source>Show Details...</source>
            <translation>Hiện chi tiết...</translation>
        </message>
        <message>
            <source>Hide Details...</source>
            <translation>Ẩn chi tiết...</translation>
        </message>
        <message>
            <source>About Qt</source>
            <translation>Giới thiệu Qt</translation>
        </message>
        <message>
            <source>&lt;h3&gt;About Qt&lt;/h3&gt;&lt;p&gt;This program uses Qt version %1.&lt;/p&gt;</source>
            <translation>&lt;h3&gt;Giới thiệu Qt&lt;/h3&gt;&lt;p&gt;Chương trình này dùng Qt phiên bản %1.&lt;/p&gt;</translation>
        </message>
    </context>
    <context>
        <name>QLineEdit</name>
        <message>
            <source>&amp;Undo</source>
            <translation>&amp;Hoàn tác</translation>
        </message>
        <message>
            <source>&amp;Redo</source>
            <translation>&amp;Làm lại</translation>
        </message>
        <message>
            <source>Cu&amp;t</source>
            <translation>&amp;Cắt</translation>
        </message>
        <message>
            <source>&amp;Copy</source>
            <translation>&amp;Sao chép</translation>
        </message>
        <message>
            <source>&amp;Paste</source>
            <translation>&amp;Dán</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>Xóa</translation>
        </message>
        <message>
            <source>Select All</source>
            <translation>Chọn tất cả</translation>
        </message>
    </context>
    <context>
        <name>QWidgetTextControl</name>
        <message>
            <source>&amp;Undo</source>
            <translation>&amp;Hoàn tác</translation>
        </message>
        <message>
            <source>&amp;Redo</source>
            <translation>&amp;Làm lại</translation>
        </message>
        <message>
            <source>Cu&amp;t</source>
            <translation>&amp;Cắt</translation>
        </message>
        <message>
            <source>&amp;Copy</source>
            <translation>&amp;Sao chép</translation>
        </message>
        <message>
            <source>&amp;Paste</source>
            <translation>&amp;Dán</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>Xóa</translation>
        </message>
        <message>
            <source>Select All</source>
            <translation>Chọn tất cả</translation>
        </message>
        <message>
            <source>Copy &amp;Link Location</source>
            <translation>Sao chép địa chỉ &amp;liên kết</translation>
        </message>
    </context>
    <context>
        <name>QAbstractSpinBox</name>
        <message>
            <source>&amp;Select All</source>
            <translation>&amp;Chọn tất cả</translation>
        </message>
        <message>
            <source>&amp;Step up</source>
            <translation>&amp;Tăng</translation>
        </message>
        <message>
            <source>Step &amp;down</source>
            <translation>&amp;Giảm</translation>
        </message>
    </context>
    <context>
        <name>QProgressDialog</name>
        <message>
            <source>Cancel</source>
            <translation>Hủy</translation>
        </message>
    </context>
    <context>
        <name>QProgressBar</name>
        <message>
            <source>%p%</source>
            <translation>%p%</translation>
        </message>
    </context>
    <context>
        <name>QWizard</name>
        <message>
            <source>&lt; &amp;Back</source>
            <translation>&lt; &amp;Quay lại</translation>
        </message>
        <message>
            <source>&amp;Next &gt;</source>
            <translation>&amp;Tiếp &gt;</translation>
        </message>
        <message>
            <source>&amp;Next</source>
            <translation>&amp;Tiếp</translation>
        </message>
        <message>
            <source>&amp;Finish</source>
            <translation>&amp;Hoàn tất</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Hủy</translation>
        </message>
        <message>
            <source>Help</source>
            <translation>Trợ giúp</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>Trợ &amp;giúp</translation>
        </message>
        <message>
            <source>Commit</source>
            <translation>Xác nhận</translation>
        </message>
        <message>
            <source>Continue</source>
            <translation>Tiếp tục</translation>
        </message>
        <message>
            <source>Done</source>
            <translation>Xong</translation>
        </message>
        <message>
            <source>Go Back</source>
            <translation>Quay lại</translation>
        </message>
    </context>
    <context>
        <name>QFileDialog</name>
        <message>
            <source>&amp;Delete</source>
            <translation>&amp;Xóa</translation>
        </message>
        <message>
            <source>&amp;New Folder</source>
            <translation>Thư mục &amp;mới</translation>
        </message>
        <message>
            <source>&amp;Open</source>
            <translation>&amp;Mở</translation>
        </message>
        <message>
            <source>&amp;Rename</source>
            <translation>Đổi &amp;tên</translation>
        </message>
        <message>
            <source>&amp;Save</source>
            <translation>&amp;Lưu</translation>
        </message>
        <message>
            <source>&amp;Choose</source>
            <translation>&amp;Chọn</translation>
        </message>
        <message>
            <source>All Files (*)</source>
            <translation>Mọi tệp (*)</translation>
        </message>
        <message>
            <source>All files (*)</source>
            <translation>Mọi tệp (*)</translation>
        </message>
        <message>
            <source>Alt+Left</source>
            <translation>Alt+Left</translation>
        </message>
        <message>
            <source>Alt+Right</source>
            <translation>Alt+Right</translation>
        </message>
        <message>
            <source>Alt+Up</source>
            <translation>Alt+Up</translation>
        </message>
        <message>
            <source>Back</source>
            <translation>Quay lại</translation>
        </message>
        <message>
            <source>Forward</source>
            <translation>Tiến tới</translation>
        </message>
        <message>
            <source>Go back</source>
            <translation>Quay lại</translation>
        </message>
        <message>
            <source>Go forward</source>
            <translation>Tiến tới</translation>
        </message>
        <message>
            <source>Go to the parent directory</source>
            <translation>Lên thư mục cha</translation>
        </message>
        <message>
            <source>Parent Directory</source>
            <translation>Thư mục cha</translation>
        </message>
        <message>
            <source>Change to detail view mode</source>
            <translation>Chuyển sang chế độ xem chi tiết</translation>
        </message>
        <message>
            <source>Change to list view mode</source>
            <translation>Chuyển sang chế độ xem danh sách</translation>
        </message>
        <message>
            <source>Detail View</source>
            <translation>Xem chi tiết</translation>
        </message>
        <message>
            <source>List View</source>
            <translation>Xem danh sách</translation>
        </message>
        <message>
            <source>Create New Folder</source>
            <translation>Tạo thư mục mới</translation>
        </message>
        <message>
            <source>Create a New Folder</source>
            <translation>Tạo một thư mục mới</translation>
        </message>
        <message>
            <source>New Folder</source>
            <translation>Thư mục mới</translation>
        </message>
        <message>
            <source>File &amp;name:</source>
            <translation>&amp;Tên tệp:</translation>
        </message>
        <message>
            <source>Files of type:</source>
            <translation>Loại tệp:</translation>
        </message>
        <message>
            <source>Look in:</source>
            <translation>Tìm trong:</translation>
        </message>
        <message>
            <source>Files</source>
            <translation>Tệp</translation>
        </message>
        <message>
            <source>List of places and bookmarks</source>
            <translation>Danh sách vị trí và dấu trang</translation>
        </message>
        <message>
            <source>Sidebar</source>
            <translation>Thanh bên</translation>
        </message>
        <message>
            <source>Show </source>
            <translation>Hiện </translation>
        </message>
        <message>
            <source>Show &amp;hidden files</source>
            <translation>&amp;Hiện tệp ẩn</translation>
        </message>
        <message>
            <source>%1 already exists.
Do you want to replace it?</source>
            <translation>%1 đã tồn tại.
Bạn có muốn thay thế tệp này không?</translation>
        </message>
        <message>
            <source>'%1' is write protected.
Do you want to delete it anyway?</source>
            <translation>“%1” đang được bảo vệ chống ghi.
Bạn vẫn muốn xóa?</translation>
        </message>
        <message>
            <source>Are you sure you want to delete '%1'?</source>
            <translation>Bạn có chắc muốn xóa “%1”?</translation>
        </message>
        <message>
            <source>Could not delete directory.</source>
            <translation>Không thể xóa thư mục.</translation>
        </message>
        <message>
            <source>%1
Directory not found.
Please verify the correct directory name was given.</source>
            <translation>%1
Không tìm thấy thư mục.
Hãy kiểm tra lại tên thư mục.</translation>
        </message>
        <message>
            <source>%1
File not found.
Please verify the correct file name was given.</source>
            <translation>%1
Không tìm thấy tệp.
Hãy kiểm tra lại tên tệp.</translation>
        </message>
        <message>
            <source>Directories</source>
            <translation>Thư mục</translation>
        </message>
        <message>
            <source>Directory:</source>
            <translation>Thư mục:</translation>
        </message>
        <message>
            <source>Find Directory</source>
            <translation>Tìm thư mục</translation>
        </message>
        <message>
            <source>Open</source>
            <translation>Mở</translation>
        </message>
        <message>
            <source>Save As</source>
            <translation>Lưu thành</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>Xóa</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>Gỡ bỏ</translation>
        </message>
        <message>
            <source>Recent Places</source>
            <translation>Vị trí gần đây</translation>
        </message>
        <message>
            <source>My Computer</source>
            <translation>Máy tính</translation>
        </message>
        <message>
            <source>Unknown</source>
            <translation>Không rõ</translation>
        </message>
        <message>
            <source>Drive</source>
            <translation>Ổ đĩa</translation>
        </message>
        <message>
            <source>File</source>
            <translation>Tệp</translation>
        </message>
        <message>
            <source>Folder</source>
            <translation>Thư mục</translation>
        </message>
        <message>
            <source>File Folder</source>
            <translation>Thư mục tệp</translation>
        </message>
        <message>
            <source>%1 File</source>
            <translation>Tệp %1</translation>
        </message>
        <message>
            <source>Shortcut</source>
            <translation>Lối tắt</translation>
        </message>
        <message>
            <source>Alias</source>
            <translation>Bí danh</translation>
        </message>
    </context>
    <context>
        <name>QFileSystemModel</name>
        <message>
            <source>Name</source>
            <translation>Tên</translation>
        </message>
        <message>
            <source>Size</source>
            <translation>Kích thước</translation>
        </message>
        <message>
            <source>Type</source>
            <comment>All other platforms</comment>
            <translation>Loại</translation>
        </message>
        <message>
            <source>Type</source>
            <translation>Loại</translation>
        </message>
        <message>
            <source>Kind</source>
            <translation>Loại</translation>
        </message>
        <message>
            <source>Date Modified</source>
            <translation>Ngày sửa đổi</translation>
        </message>
        <message>
            <source>Computer</source>
            <translation>Máy tính</translation>
        </message>
        <message>
            <source>My Computer</source>
            <translation>Máy tính</translation>
        </message>
        <message>
            <source>Invalid filename</source>
            <translation>Tên tệp không hợp lệ</translation>
        </message>
        <message>
            <source>&lt;b&gt;The name "%1" cannot be used.&lt;/b&gt;&lt;p&gt;Try using another name, with fewer characters or no punctuation marks.</source>
            <translation>&lt;b&gt;Không thể dùng tên “%1”.&lt;/b&gt;&lt;p&gt;Hãy thử tên khác, ít ký tự hơn hoặc không có dấu câu.</translation>
        </message>
    </context>
    <context>
        <name>QAbstractFileIconProvider</name>
        <message>
            <source>Drive</source>
            <translation>Ổ đĩa</translation>
        </message>
        <message>
            <source>Folder</source>
            <comment>All other platforms</comment>
            <translation>Thư mục</translation>
        </message>
        <message>
            <source>Folder</source>
            <translation>Thư mục</translation>
        </message>
        <message>
            <source>Shortcut</source>
            <comment>All other platforms</comment>
            <translation>Lối tắt</translation>
        </message>
        <message>
            <source>Shortcut</source>
            <translation>Lối tắt</translation>
        </message>
        <message>
            <source>File Folder</source>
            <comment>Match Windows Explorer</comment>
            <translation>Thư mục tệp</translation>
        </message>
        <message>
            <source>Alias</source>
            <comment>macOS Finder</comment>
            <translation>Bí danh</translation>
        </message>
        <message>
            <source>Unknown</source>
            <translation>Không rõ</translation>
        </message>
    </context>
    <context>
        <name>QScrollBar</name>
        <message>
            <source>Scroll here</source>
            <translation>Cuộn tới đây</translation>
        </message>
        <message>
            <source>Left edge</source>
            <translation>Cạnh trái</translation>
        </message>
        <message>
            <source>Top</source>
            <translation>Trên cùng</translation>
        </message>
        <message>
            <source>Right edge</source>
            <translation>Cạnh phải</translation>
        </message>
        <message>
            <source>Bottom</source>
            <translation>Dưới cùng</translation>
        </message>
        <message>
            <source>Page left</source>
            <translation>Trang trái</translation>
        </message>
        <message>
            <source>Page up</source>
            <translation>Lên một trang</translation>
        </message>
        <message>
            <source>Page right</source>
            <translation>Trang phải</translation>
        </message>
        <message>
            <source>Page down</source>
            <translation>Xuống một trang</translation>
        </message>
        <message>
            <source>Scroll left</source>
            <translation>Cuộn sang trái</translation>
        </message>
        <message>
            <source>Scroll up</source>
            <translation>Cuộn lên</translation>
        </message>
        <message>
            <source>Scroll right</source>
            <translation>Cuộn sang phải</translation>
        </message>
        <message>
            <source>Scroll down</source>
            <translation>Cuộn xuống</translation>
        </message>
    </context>
    <context>
        <name>QComboBox</name>
        <message>
            <source>Open the combo box selection popup</source>
            <translation>Mở danh sách lựa chọn</translation>
        </message>
        <message>
            <source>False</source>
            <translation>Sai</translation>
        </message>
        <message>
            <source>True</source>
            <translation>Đúng</translation>
        </message>
    </context>
    <context>
        <name>QAccessibleActionInterface</name>
        <message>
            <source>Press</source>
            <translation>Nhấn</translation>
        </message>
        <message>
            <source>Increase</source>
            <translation>Tăng</translation>
        </message>
        <message>
            <source>Decrease</source>
            <translation>Giảm</translation>
        </message>
        <message>
            <source>ShowMenu</source>
            <translation>Hiện menu</translation>
        </message>
        <message>
            <source>SetFocus</source>
            <translation>Đặt tiêu điểm</translation>
        </message>
        <message>
            <source>Toggle</source>
            <translation>Bật/tắt</translation>
        </message>
        <message>
            <source>Scroll Left</source>
            <translation>Cuộn sang trái</translation>
        </message>
        <message>
            <source>Scroll Right</source>
            <translation>Cuộn sang phải</translation>
        </message>
        <message>
            <source>Scroll Up</source>
            <translation>Cuộn lên</translation>
        </message>
        <message>
            <source>Scroll Down</source>
            <translation>Cuộn xuống</translation>
        </message>
        <message>
            <source>Previous Page</source>
            <translation>Trang trước</translation>
        </message>
        <message>
            <source>Next Page</source>
            <translation>Trang sau</translation>
        </message>
        <message>
            <source>Triggers the action</source>
            <translation>Thực hiện hành động</translation>
        </message>
        <message>
            <source>Increase the value</source>
            <translation>Tăng giá trị</translation>
        </message>
        <message>
            <source>Decrease the value</source>
            <translation>Giảm giá trị</translation>
        </message>
        <message>
            <source>Shows the menu</source>
            <translation>Hiện menu</translation>
        </message>
        <message>
            <source>Sets the focus</source>
            <translation>Đặt tiêu điểm</translation>
        </message>
        <message>
            <source>Toggles the state</source>
            <translation>Chuyển đổi trạng thái</translation>
        </message>
        <message>
            <source>Scrolls to the left</source>
            <translation>Cuộn sang trái</translation>
        </message>
        <message>
            <source>Scrolls to the right</source>
            <translation>Cuộn sang phải</translation>
        </message>
        <message>
            <source>Scrolls up</source>
            <translation>Cuộn lên</translation>
        </message>
        <message>
            <source>Scrolls down</source>
            <translation>Cuộn xuống</translation>
        </message>
        <message>
            <source>Goes back a page</source>
            <translation>Lùi lại một trang</translation>
        </message>
        <message>
            <source>Goes to the next page</source>
            <translation>Sang trang sau</translation>
        </message>
    </context>
    <context>
        <name>QIODevice</name>
        <message>
            <source>No space left on device</source>
            <translation>Thiết bị không còn chỗ trống</translation>
        </message>
        <message>
            <source>No such file or directory</source>
            <translation>Không có tệp hoặc thư mục này</translation>
        </message>
        <message>
            <source>Permission denied</source>
            <translation>Không có quyền truy cập</translation>
        </message>
        <message>
            <source>Too many open files</source>
            <translation>Quá nhiều tệp đang mở</translation>
        </message>
        <message>
            <source>Unknown error</source>
            <translation>Lỗi không xác định</translation>
        </message>
        <message>
            <source>file to open is a directory</source>
            <translation>tệp cần mở là một thư mục</translation>
        </message>
    </context>
    <context>
        <name>QImageWriter</name>
        <message>
            <source>Unknown error</source>
            <translation>Lỗi không xác định</translation>
        </message>
    </context>
    <context>
        <name>QDialog</name>
        <message>
            <source>What's This?</source>
            <translation>Đây là gì?</translation>
        </message>
    </context>
    <context>
        <name>QWhatsThisAction</name>
        <message>
            <source>What's This?</source>
            <translation>Đây là gì?</translation>
        </message>
    </context>
    <context>
        <name>CloseButton</name>
        <message>
            <source>Close Tab</source>
            <translation>Đóng thẻ</translation>
        </message>
    </context>
    <context>
        <name>QKeySequenceEdit</name>
        <message>
            <source>Press shortcut</source>
            <translation>Nhấn phím tắt</translation>
        </message>
        <message>
            <source>%1, ...</source>
            <translation>%1, ...</translation>
        </message>
    </context>
    <context>
        <name>QGuiApplication</name>
        <message>
            <source>QT_LAYOUT_DIRECTION</source>
            <comment>Translate this string to the string 'LTR' in left-to-right languages or to 'RTL' in right-to-left languages (such as Hebrew and Arabic) to get proper widget layout.</comment>
            <translation>LTR</translation>
        </message>
    </context>
    <context>
        <name>QShortcut</name>
        <message>
            <source>+</source>
            <translation>+</translation>
        </message>
        <message>
            <source>Alt</source>
            <translation>Alt</translation>
        </message>
        <message>
            <source>Ctrl</source>
            <translation>Ctrl</translation>
        </message>
        <message>
            <source>Shift</source>
            <translation>Shift</translation>
        </message>
        <message>
            <source>Meta</source>
            <translation>Meta</translation>
        </message>
        <message>
            <source>Num</source>
            <translation>Num</translation>
        </message>
        <message>
            <source>Esc</source>
            <translation>Esc</translation>
        </message>
        <message>
            <source>Tab</source>
            <translation>Tab</translation>
        </message>
        <message>
            <source>Backtab</source>
            <translation>Backtab</translation>
        </message>
        <message>
            <source>Backspace</source>
            <translation>Backspace</translation>
        </message>
        <message>
            <source>Return</source>
            <translation>Return</translation>
        </message>
        <message>
            <source>Enter</source>
            <translation>Enter</translation>
        </message>
        <message>
            <source>Ins</source>
            <translation>Ins</translation>
        </message>
        <message>
            <source>Del</source>
            <translation>Del</translation>
        </message>
        <message>
            <source>Pause</source>
            <translation>Pause</translation>
        </message>
        <message>
            <source>Print</source>
            <translation>Print</translation>
        </message>
        <message>
            <source>SysReq</source>
            <translation>SysReq</translation>
        </message>
        <message>
            <source>Home</source>
            <translation>Home</translation>
        </message>
        <message>
            <source>End</source>
            <translation>End</translation>
        </message>
        <message>
            <source>PgUp</source>
            <translation>PgUp</translation>
        </message>
        <message>
            <source>PgDown</source>
            <translation>PgDown</translation>
        </message>
        <message>
            <source>CapsLock</source>
            <translation>CapsLock</translation>
        </message>
        <message>
            <source>NumLock</source>
            <translation>NumLock</translation>
        </message>
        <message>
            <source>ScrollLock</source>
            <translation>ScrollLock</translation>
        </message>
        <message>
            <source>Menu</source>
            <translation>Menu</translation>
        </message>
        <message>
            <source>F%1</source>
            <translation>F%1</translation>
        </message>
        <message>
            <source>Space</source>
            <translation>Dấu cách</translation>
        </message>
        <message>
            <source>Left</source>
            <translation>Trái</translation>
        </message>
        <message>
            <source>Up</source>
            <translation>Lên</translation>
        </message>
        <message>
            <source>Right</source>
            <translation>Phải</translation>
        </message>
        <message>
            <source>Down</source>
            <translation>Xuống</translation>
        </message>
        <message>
            <source>Back</source>
            <translation>Quay lại</translation>
        </message>
        <message>
            <source>Forward</source>
            <translation>Tiến tới</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Hủy</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>Đóng</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>Sao chép</translation>
        </message>
        <message>
            <source>Cut</source>
            <translation>Cắt</translation>
        </message>
        <message>
            <source>Paste</source>
            <translation>Dán</translation>
        </message>
        <message>
            <source>Undo</source>
            <translation>Hoàn tác</translation>
        </message>
        <message>
            <source>Redo</source>
            <translation>Làm lại</translation>
        </message>
        <message>
            <source>Find</source>
            <translation>Tìm</translation>
        </message>
        <message>
            <source>Help</source>
            <translation>Trợ giúp</translation>
        </message>
        <message>
            <source>New</source>
            <translation>Mới</translation>
        </message>
        <message>
            <source>Open</source>
            <translation>Mở</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>Lưu</translation>
        </message>
        <message>
            <source>Refresh</source>
            <translation>Làm mới</translation>
        </message>
        <message>
            <source>Exit</source>
            <translation>Thoát</translation>
        </message>
        <message>
            <source>Settings</source>
            <translation>Cài đặt</translation>
        </message>
        <message>
            <source>Zoom In</source>
            <translation>Phóng to</translation>
        </message>
        <message>
            <source>Zoom Out</source>
            <translation>Thu nhỏ</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>Dừng</translation>
        </message>
        <message>
            <source>Search</source>
            <translation>Tìm kiếm</translation>
        </message>
        <message>
            <source>Reload</source>
            <translation>Tải lại</translation>
        </message>
        <message>
            <source>Print Screen</source>
            <translation>Print Screen</translation>
        </message>
        <message>
            <source>Select</source>
            <translation>Chọn</translation>
        </message>
    </context>
</TS>
